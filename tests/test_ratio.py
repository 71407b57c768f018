"""The ratio verdict: a candidate is slow at R x its own static twin, measured in the same run.

The child is simulated (pure logic, no torch in the parent): a run of a script with w free
symbols costs `BASE_S + COST_S * w²` CPU seconds, or never ends if w reaches `endless`, and
is stopped at the oracle's kill point like a real child. Everything else is the real
oracle, calibration, reducer and `minimize` on a repro written by torch's own writer.
"""

from __future__ import annotations

import inspect
import json
import math
import time
from dataclasses import replace
from pathlib import Path

import pytest

import symshrink.minimize_oracle as minimize_oracle
import symshrink.minimize_program as minimize_program
import symshrink.minimize_record as minimize_record
import symshrink.minimize_stages as minimize_stages
import symshrink.minimizing as minimize_mod
from symshrink.baseline import control, static_twin
from symshrink.oracle import Calibration, CompileOracle, Judging
from symshrink.oracle.calibrate import DEFAULT_FLOOR_S, run_spread
from symshrink.oracle.compile_oracle import EDGE_RUNS
from symshrink.oracle.noise import MIN_MARGIN
from symshrink.passes import GRAPH_PASSES, SCHEDULE
from symshrink.passes.symbols import PIN, Pin
from symshrink.records import (
    CALIBRATION,
    CONTROLS,
    JOURNAL,
    REPORT,
    ProgramCheck,
    RunOptions,
    RunRecord,
    Side,
)
from symshrink.repro.candidate import Candidate
from symshrink.repro.model import Repro
from symshrink.repro.parse import _Parser, parse, parse_file
from symshrink.repro.render import canonical_key, render
from symshrink.sandbox import Exit, Job, Limits, Profile, Run, read_kill_point

pytestmark = pytest.mark.torch  # the repro fixtures are written by torch

PROGRAM_CHECK = ProgramCheck(verdict="slow", why="3 of 3 dynamic runs", at_ratio=4.0, ratio=5.0)

BASE_S = 1.0
COST_S = 0.2
INDEPENDENT_S = 0.01
TICK_S = 0.01  # real seconds per simulated second, for runs raced against the oracle


class WidthRunner:
    """A `Runner` whose child's cost is driven by the script's free symbols."""

    shares_scratch = False  # a run beside another is asked for explicitly (beside=True)

    def __init__(self, endless: int | None = None, slots: int = 1, cost_s: float = COST_S) -> None:
        self.endless, self.slots, self.cost_s = endless, slots, cost_s
        self.runs: list[tuple[int, str, Limits]] = []  # (free symbols, mode, limits)
        self.load = 1.0  # the machine's load: every run's cost scales with it

    def cost(self, width: int, mode: str) -> float:
        if mode == "independent":  # every size its own symbol: no relations, no pathology
            return (BASE_S + INDEPENDENT_S * width) * self.load
        if self.endless is not None and width >= self.endless:
            return math.inf
        return (BASE_S + self.cost_s * width**2) * self.load

    def run(self, job: Job, limits: Limits) -> Run:
        width = len(parse_file(job.script).hints)
        mode = json.loads(job.spec_path.read_text())["retrace"]["mode"]
        cpu = self.cost(width, mode)
        if limits.kill_file is not None:  # its kill point is written, and rewritten, later
            limits = replace(limits, kill_at=self._watch(limits.kill_file, cpu), kill_file=None)
        self.runs.append((width, mode, limits))
        if limits.kill_at is not None and cpu >= limits.kill_at:
            return Run(Exit("threshold", limits.kill_at, limits.kill_at, -15, True), None, None, "")
        if cpu >= limits.timeout_s:
            wall = limits.timeout_s
            return Run(Exit("timeout", wall, wall, -15, True), None, None, "")
        result = {"error": None, "phases": {"lowering": cpu}}
        return Run(Exit("exited", cpu, cpu, 0, True), result, None, "")

    @staticmethod
    def _watch(kill_file: str, cpu: float) -> float:
        """Run a child of `cpu` seconds against the points written into `kill_file`,
        TICK_S of real time per simulated second: the point that stopped it, else the
        last one read (that it ended below)."""
        elapsed, deadline = 0.0, time.monotonic() + 30
        while True:
            point = read_kill_point(kill_file)
            if point is not None and (elapsed >= point or elapsed >= cpu):
                return point
            assert time.monotonic() < deadline, "no kill point written"
            time.sleep(TICK_S)
            elapsed = min(elapsed + 1.0, cpu)

    def controls(self) -> list[tuple[int, str, Limits]]:
        """The runs of static twins (no symbols, never stopped: candidates are)."""
        return [r for r in self.runs if r[0] == 0 and r[2].kill_at is None]

    def close(self) -> None:
        pass


JUDGING = Judging(signature=False, margin=0.0, confirm=0, timeout_s=600.0)


@pytest.fixture
def repro(fixtures: dict) -> Path:
    """floordiv_sum at n = 16: 16 free symbols in a wide sum, torch-written."""
    return fixtures["floordiv_sum_n16"].path


def test_static_twin_pins_every_symbol_and_folds_constants(repro: Path) -> None:
    model = parse_file(repro)
    twin = static_twin(model)
    assert twin.hints == {}
    assert all(e.is_Integer for e in twin.input_exprs())
    # Twins of candidates that pinned different symbols are one script, one key.
    names = list(model.hints)
    a = PIN.apply(model, [Pin(names[0])])
    b = PIN.apply(model, [Pin(names[1]), Pin(names[2])])
    assert a is not None and b is not None
    assert render(static_twin(a)) == render(twin) == render(static_twin(b))
    assert control(Candidate.of(a), "static").key == control(Candidate.of(b), "static").key
    assert control(Candidate.of(a), "static").key == "static:" + canonical_key(twin)
    independent = control(Candidate.of(a), "independent")
    assert independent.mode == "independent" and parse(independent.source) == a


def test_an_original_that_never_finishes_is_slow_without_waiting(
    repro: Path, tmp_path: Path
) -> None:
    runner = WidthRunner(endless=16)
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=JUDGING,
        ratio=4.0,
        scratch=tmp_path,
    )
    originals = [lim for w, _, lim in runner.runs if w == 16]
    # the twin 5 times: the spread of its runs is the margin; the original k = 3 times,
    # each stopped: one at 8x its kill point (its headroom, the guard's reference)
    assert len(originals) == 3 and len(runner.controls()) == 5
    assert [lim.kill_at for lim in originals] == pytest.approx([32.0, 4.0, 4.0])
    cal = oracle.calibration
    assert cal.ratio == 4.0 and cal.baseline_s == BASE_S and cal.stopped
    assert oracle.threshold_s == pytest.approx(4.0 * BASE_S)
    before = len(runner.runs)
    first = oracle(Candidate.read(repro.read_text()))  # the calibration's runs already judged it
    assert len(runner.runs) == before
    assert first.status == "slow" and first.stopped and first.ratio == pytest.approx(4.0)


def test_a_twin_is_measured_once_per_canonical_form(repro: Path, tmp_path: Path) -> None:
    runner = WidthRunner()
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=JUDGING,
        ratio=4.0,
        scratch=tmp_path,
    )
    model = parse_file(repro)
    names = list(model.hints)
    calibrated = len(runner.controls())
    pinned = [PIN.apply(model, [Pin(n) for n in names[:k]]) for k in (4, 8, 13)]
    verdicts = oracle.many([Candidate.of(m) for m in pinned if m is not None])
    # They all share the original's twin, measured again once, k = 3 runs: the first slow
    # verdict would rest on a twin measured before the original's runs (under their load).
    assert len(runner.controls()) == calibrated + 3
    # 12 symbols: 1 + 0.2 * 144 = 29.8 s >= 4 s; 3 symbols: 2.8 s < 4 s
    assert [v.status for v in verdicts] == ["slow", "slow", "fast"]
    assert all(v.baseline_s == BASE_S for v in verdicts)
    assert verdicts[2].ratio == pytest.approx(2.8) and not verdicts[2].stopped
    # A candidate with other values has a twin of its own, measured once for its first
    # run's limit, then k times for its slow verdict: a candidate that pins more of its
    # symbols shares it.
    changed = PIN.apply(model.replace(hints={**model.hints, names[0]: 999}), [Pin(names[1])])
    assert changed is not None
    more = PIN.apply(changed, [Pin(n) for n in names[2:15]])  # 1 symbol left: fast
    assert more is not None
    assert [oracle(Candidate.of(m)).status for m in (changed, more)] == ["slow", "fast"]
    assert len(runner.controls()) == calibrated + 3 + 1 + 3
    assert len(oracle.controls) == 2


def _pinned(repro: Path, k: int) -> Candidate:
    model = parse_file(repro)
    candidate = PIN.apply(model, [Pin(n) for n in list(model.hints)[:k]])
    assert candidate is not None
    return Candidate.of(candidate)


def test_a_candidate_s_twin_comes_from_its_model_not_its_script_parsed_back(
    repro: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reducer builds each candidate once: the oracle runs its script and derives its
    static twin from its model, so no script is parsed in the parent any more."""
    runner = WidthRunner()
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=JUDGING,
        ratio=4.0,
        scratch=tmp_path,
    )
    candidate = _pinned(repro, 6)  # a twin not measured yet: the original's pins no symbol

    parse_for_real = _Parser.parse

    def in_the_child_only(self: _Parser) -> Repro:
        """The fake runner stands for the child, which reads its script; nothing else may."""
        if not any(f.function == "run" and f.filename == __file__ for f in inspect.stack()):
            raise AssertionError("a candidate's script was parsed again in the parent")
        return parse_for_real(self)

    monkeypatch.setattr(_Parser, "parse", in_the_child_only)
    before = len(runner.controls())
    assert oracle(candidate).status == "slow"
    assert len(runner.controls()) > before  # its twin was built and measured


def test_a_slow_verdict_against_a_twin_measured_earlier_is_judged_against_it_measured_now(
    repro: Path, tmp_path: Path
) -> None:
    runner = WidthRunner()
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=JUDGING,
        ratio=4.0,
        scratch=tmp_path,
    )
    before = len(runner.controls())
    # 12 symbols: 1 + 0.2 * 144 = 29.8 s, stopped at 4.4 s; the twin shared with the
    # original was measured before the original's runs: measured again (k = 3 runs), the
    # stopped run stands
    assert oracle(_pinned(repro, 4)).status == "slow"
    assert [w for w, _, _ in runner.runs[-4:]] == [12, 0, 0, 0]
    assert len(runner.controls()) == before + 3
    # Right after, the twin is fresh and measured k times: one run decides.
    assert oracle(_pinned(repro, 5)).status == "slow"
    assert [w for w, _, _ in runner.runs[-1:]] == [11] and len(runner.controls()) == before + 3


def test_a_stale_twin_that_moved_the_limit_past_the_run_judges_again(
    repro: Path, tmp_path: Path
) -> None:
    runner = WidthRunner()
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=JUDGING,
        ratio=4.0,
        scratch=tmp_path,
    )
    oracle(_pinned(repro, 14))  # another run: the original's twin is not fresh any more
    runner.load = 1.5  # a compile started beside us: the twin now costs 1.5 s, limit 6 s
    # 6 symbols cost 1 + 0.2 * 36 = 8.2 s, x 1.5 = 12.3 s: still slow against its own twin
    assert oracle(_pinned(repro, 10)).status == "slow"
    widths = [w for w, _, _ in runner.runs[-5:]]
    assert widths == [6, 0, 0, 0, 6]  # stopped at 4.4 s < 6.6 s, the fresh limit's band: again
    assert runner.runs[-1][2].kill_at == pytest.approx(4.0 * 1.5 * 1.1)


class LuckyTwinRunner(WidthRunner):
    """A WidthRunner whose twin's runs take the times in `twins`, in order (then 1 s)."""

    def __init__(self, twins: list[float], cost_s: float) -> None:
        super().__init__(cost_s=cost_s)
        self.twins = twins

    def cost(self, width: int, mode: str) -> float:
        if width == 0:
            return self.twins.pop(0) if self.twins else BASE_S
        return super().cost(width, mode)


@pytest.mark.parametrize(("slow_control_runs", "status"), [(1, "slow"), (3, "fast")])
def test_a_slow_verdict_stands_against_the_twin_measured_k_times_not_one_lucky_run(
    slow_control_runs: int, status: str, repro: Path, tmp_path: Path
) -> None:
    """The twin is a short run: one of its runs taking 0.8 s where it usually takes 1 s
    puts the limit at 3.2 s, and a candidate of 3.8 s passes it, to fail re-verification,
    which measures the twin 3 times (median 1 s: limit 4 s). Judged against the twin's
    median of k = 3 runs, as re-verification measures it, the candidate is not slow."""
    runner = LuckyTwinRunner([0.8], cost_s=0.175)  # 4 symbols: 1 + 0.175 * 16 = 3.8 s
    calibration = Calibration("cpu", (), 4.0, ratio=4.0, baseline_measures=(BASE_S,) * 3)
    judging = replace(JUDGING, slow_control_runs=slow_control_runs)
    oracle = CompileOracle(calibration, runner, judging=judging, scratch=tmp_path, jobs=1)
    verdict = oracle(_pinned(repro, 12))
    assert verdict.status == status
    if status == "fast":  # stopped at 3.52 s (the lucky limit's band): run again at 4 s
        assert verdict.baseline_s == BASE_S and verdict.ratio == pytest.approx(3.8)
        assert [w for w, _, _ in runner.runs] == [0, 4, 0, 0, 0, 4]  # 3.8 s: not slow
    # re-verification says what the candidate is either way: not slow at 4 s
    assert not oracle.reverify(_pinned(repro, 12)).passed


def test_confirm_runs_must_all_be_slow(repro: Path, tmp_path: Path) -> None:
    runner = WidthRunner()
    judging = Judging(signature=False, margin=0.0, confirm=2, timeout_s=600.0)
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=judging,
        ratio=4.0,
        scratch=tmp_path,
    )
    oracle(_pinned(repro, 14))
    before = len(runner.runs)
    assert oracle(_pinned(repro, 4)).status == "slow"
    # the first run, the twin measured again (k = 3 runs), two confirmations at the limit
    assert [w for w, _, _ in runner.runs[before:]] == [12, 0, 0, 0, 12, 12]
    assert all(lim.kill_at == pytest.approx(4.0) for _, _, lim in runner.runs[-2:])


def test_the_spare_slot_measures_a_new_twin_then_makes_the_second_run_a_close_call_needs(
    repro: Path, tmp_path: Path
) -> None:
    """One job, two slots: the candidate starts at once; its twin's time, once measured on
    the other slot, says where it is stopped (4 x 1.0 s, + the band: 4.4 s). The spare slot
    then starts a second run, stopped as soon as the first turns out clear."""
    runner = WidthRunner(slots=2)
    calibration = Calibration("cpu", (), 4.0, ratio=4.0, baseline_measures=(BASE_S,) * 3)
    oracle = CompileOracle(
        calibration, runner, judging=JUDGING, scratch=tmp_path, jobs=1, beside=True
    )
    model = parse_file(repro)
    names = list(model.hints)
    changed = PIN.apply(model.replace(hints={**model.hints, names[0]: 999}), [Pin(names[1])])
    assert changed is not None
    verdict = oracle(Candidate.of(changed))  # 15 symbols: 46 s, stopped
    assert verdict.status == "slow" and verdict.baseline_s == BASE_S
    assert "runs slow" not in verdict.detail  # one run decided
    # one twin run for the kill point, two runs of the candidate; slow, so the twin is
    # measured k = 3 times more (as re-verification would), and the stopped run stands
    assert [w for w, _, _ in runner.runs[-3:]] == [0, 0, 0]
    assert sorted(w for w, _, _ in runner.runs) == [0, 0, 0, 0, 15, 15]
    assert 4.4 in [pytest.approx(lim.kill_at) for w, _, lim in runner.runs if w == 15]
    # A candidate sharing that twin: the twin is measured again beside it, then the second run
    again = PIN.apply(changed, [Pin(names[2])])
    assert again is not None and oracle(Candidate.of(again)).status == "slow"
    assert sorted(w for w, _, _ in runner.runs[6:]) == [0, 0, 0, 0, 14, 14]
    # 4 symbols: 1 + 0.2 * 16 = 4.2 s, within the band of 4 s: the second run is the
    # band's re-run, made beside the first; a close call is slow only when all 3 runs are,
    # and against the twin measured k times they still are.
    close = PIN.apply(changed, [Pin(n) for n in names[2:13]])
    assert close is not None
    verdict = oracle(Candidate.of(close))
    assert verdict.status == "slow" and "(3/3 runs slow)" in verdict.detail
    assert sorted(w for w, _, _ in runner.runs[12:]) == [0, 0, 0, 0, 4, 4, 4]
    assert list(tmp_path.glob("kill-*")) == []


def test_an_absolute_threshold_still_works(repro: Path, tmp_path: Path) -> None:
    runner = WidthRunner(endless=16)
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=JUDGING,
        threshold_s=3.0,
        scratch=tmp_path,
    )
    assert runner.controls() == [] and oracle.calibration.ratio is None
    # stopped at 3 s, but for the one that goes on to 8x that (the headroom)
    assert sorted(lim.kill_at for _, _, lim in runner.runs) == [3.0, 3.0, 24.0]
    model = parse_file(repro)
    fast = PIN.apply(model, [Pin(n) for n in list(model.hints)[:14]])  # 2 symbols: 1.8 s
    assert fast is not None
    verdict = oracle(Candidate.of(fast))
    assert verdict.status == "fast" and verdict.ratio is None and verdict.baseline_s is None
    assert runner.controls() == []


def test_the_independent_baseline_retraces_the_candidate_as_run_repro(
    repro: Path, tmp_path: Path
) -> None:
    runner = WidthRunner(endless=16)
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=JUDGING,
        baseline="independent",
        scratch=tmp_path,
    )
    controls = [(w, lim) for w, mode, lim in runner.runs if mode == "independent"]
    assert [w for w, _ in controls] == [16] * 5  # the original itself, as run_repro runs it
    assert all(lim.kill_at is None for _, lim in controls)
    assert oracle.calibration.baseline == "independent"
    assert oracle.calibration.baseline_s == pytest.approx(BASE_S + INDEPENDENT_S * 16)


def _minimize(
    repro: Path, out: Path, runner: WidthRunner, monkeypatch, checked: list | None = None, **opts
) -> RunRecord:
    """The real `minimize` with the simulated child on this machine's oracle path (and a
    stand-in for the check of the program it writes: the simulated repro compiles nothing;
    `checked` gets the keywords each check was asked with)."""

    def check(*_: object, **kwargs: object) -> ProgramCheck:
        if checked is not None:
            checked.append(kwargs)
        return PROGRAM_CHECK

    monkeypatch.setattr(minimize_oracle, "remote_runner", lambda *_: runner)
    monkeypatch.setattr(minimize_program, "check_program", check)
    options = minimize_mod.Options(
        **{"margin": 0.0, "confirm": 0, **opts}, repro=repro, out=out, progress=False
    )
    outcome = minimize_mod.minimize(options)
    assert outcome.exit_code == 0, outcome.message
    assert outcome.report is not None
    assert RunRecord.load(out.with_name(out.name + ".work") / REPORT) == outcome.report
    return outcome.report


def test_minimize_by_ratio_and_resume_reuses_the_twins(
    repro: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "min.py"
    first = WidthRunner(endless=16)
    report = _minimize(repro, out, first, monkeypatch, max_calls=4)
    assert all(lim.kill_at is not None for w, _, lim in first.runs if w)  # nothing waited for
    assert report.ratio == 4.0 and report.initial.lower_bound
    assert report.initial.baseline_s == BASE_S
    controls = tmp_path / "min.py.work" / CONTROLS
    measured = {json.loads(line)["key"] for line in controls.read_text().splitlines()}
    first_lines = len(controls.read_text().splitlines())
    resumed = WidthRunner(endless=16)
    report = _minimize(repro, out, resumed, monkeypatch, resume=True)
    lines = [json.loads(line) for line in controls.read_text().splitlines()]
    assert report.walked_back is not None
    # A twin measured already (by the first run, or earlier in this one) is measured again
    # only as re-verification measures it, k = 3 runs (a slow verdict's, a
    # re-verification's), never for a candidate's first limit: the store serves that.
    seen, again = set(measured), []
    for entry in lines[first_lines:]:
        if entry["key"] in seen:
            again.append(len(entry["control"]["measures"]))
        seen.add(entry["key"])
    assert again and set(again) == {3}
    # 1-minimal at 4x: w symbols cost 1 + 0.2 w² >= 4 from w = 4 on
    assert report.final.free_symbols == 4 and report.fixpoint
    assert report.final.ratio == pytest.approx(4.0) and report.final.lower_bound
    assert report.reverified
    # the result's torch.compile program is written beside it, and its check recorded
    assert report.program == str((tmp_path / "min.program.py").resolve())
    assert "def graph(" in (tmp_path / "min.program.py").read_text()
    assert report.program_check == PROGRAM_CHECK


def test_the_end_line_says_the_ratios_and_whether_the_result_is_minimal() -> None:
    side = Side(free_symbols=64, symints=1, expr_ops=600, inputs=1)
    report = RunRecord(
        repro="r.py",
        out="r.min.py",
        torch_version=None,
        options=RunOptions.taken_from(minimize_mod.Options(repro=Path("r.py"))),
        oracle="compile",
        oracle_calls=90,
        accepted=9,
        cache_hits=0,
        seconds=600.0,
        stopped_by=None,
        fixpoint=True,
        per_pass={},
        initial=replace(side, slow_phase_s=17.0, lower_bound=True, baseline_s=0.5, ratio=34.0),
        final=replace(
            side,
            free_symbols=12,
            expr_ops=40,
            slow_phase_s=2.1,
            lower_bound=False,
            baseline_s=0.45,
            ratio=4.67,
        ),
        ratio=4.0,
        margin_used=0.1,
        reverified=True,
    )
    line = minimize_record.end_line(Path("r.min.py"), report)
    assert line == (
        "r.min.py: 64 -> 12 free symbols, 600 -> 40 expression operations in 90 oracle calls "
        "(600 s); original >= 17.0 s vs twin 0.50 s (>= 34.0x) -> result 2.1 s vs twin 0.45 s "
        "(4.7x), 1-minimal at 4.4x (4x + margin 0.1)"
    )
    cut = minimize_record.end_line(
        Path("r.min.py"), replace(report, fixpoint=False, stopped_by="max_time=60")
    )
    assert cut.endswith(
        "; stopped by --max-time 60 after 90 calls: not minimal yet (--resume continues)"
    )


def test_the_longer_reference_run_gives_the_originals_time(repro: Path, tmp_path: Path) -> None:
    """An original stopped at its kill point: one of its k runs is sampled 8x longer; if it
    ends there, its time is known exactly (the report then shows no lower bound)."""
    runner = WidthRunner()  # 16 symbols: 1 + 0.2 * 256 = 52.2 s
    judging = Judging(signature=True, margin=0.0, confirm=0, timeout_s=600.0)
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=judging,
        threshold_s=10.0,
        scratch=tmp_path,
    )
    # one of the k runs, the first, is the one sampled longer
    assert [lim.kill_at for w, _, lim in runner.runs if w == 16] == [80.0, 10.0, 10.0]
    cal = oracle.calibration
    assert cal.stopped and cal.reference_s == pytest.approx(52.2)
    assert not cal.reference_stopped
    assert oracle.timing().headroom == pytest.approx(5.22)  # ended at 5.22x its kill point
    # ... and votes with them: the original is slow, judged from those three runs alone
    assert oracle(Candidate.read(repro.read_text())).interesting and len(runner.runs) == 3
    # An original that finishes needs no reference: its k runs all ran to the end.
    runner = WidthRunner()
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=judging,
        threshold_s=60.0,
        scratch=tmp_path,
    )
    assert len(runner.runs) == 3 and not oracle.calibration.stopped
    assert oracle.calibration.reference_s is None
    # One still compiling at the end of its longer run: its headroom is not known.
    runner = WidthRunner(endless=16)
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=JUDGING,
        threshold_s=10.0,
        scratch=tmp_path,
    )
    assert [lim.kill_at for w, _, lim in runner.runs] == [80.0, 10.0, 10.0]  # guard off too
    assert oracle.calibration.reference_stopped and oracle.timing().headroom is None


def test_graph_passes_lead_a_narrow_original_at_r_and_have_a_stage_of_their_own_at_2r(
    repro: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """16 symbols at 0.02 s each: 1 + 0.02 * 256 = 6.12 s, 1.53x its 4 s kill point (R = 4
    x a 1 s twin, no margin), under GRAPH_FIRST_CAP: no graph stage, the graph passes lead
    the passes at R, judged at R. With --no-graph-first the pins lead. A never-ending
    original (its headroom not known, at least 8) has a graph stage at twice R, and the
    pins lead at R."""
    runner = WidthRunner(cost_s=0.02)
    narrow = _minimize(repro, tmp_path / "n.py", runner, monkeypatch, max_calls=3)
    assert narrow.graph_first is None
    assert next(iter(narrow.per_pass)) in GRAPH_PASSES  # what the reducer ran first
    assert narrow.passes is not None and narrow.passes[: len(GRAPH_PASSES)] == GRAPH_PASSES
    assert sorted(narrow.passes) == sorted(SCHEDULE)
    at_r = 4.0 * 1.1  # a candidate's twin x R, + the band
    candidates = [lim for w, _, lim in runner.runs if w and lim.kill_at is not None]
    assert candidates[3].kill_at == pytest.approx(at_r)  # after the original's 3 runs
    journal = (tmp_path / "n.py.work" / JOURNAL).read_text()
    assert minimize_stages.GRAPH_FIRST_TAG not in journal
    assert narrow.options.graph_first
    runner = WidthRunner(cost_s=0.02)
    off = _minimize(repro, tmp_path / "d.py", runner, monkeypatch, max_calls=3, graph_first=False)
    assert off.graph_first is None and next(iter(off.per_pass)) == SCHEDULE[0]
    assert off.passes == SCHEDULE
    runner = WidthRunner(endless=16)
    wide = _minimize(repro, tmp_path / "w.py", runner, monkeypatch, max_calls=3)
    assert wide.graph_first == minimize_stages.GRAPH_FIRST_CAP
    assert next(iter(wide.per_pass)) in GRAPH_PASSES  # the stage's
    journal = (tmp_path / "w.py.work" / JOURNAL).read_text()
    assert f'"key": "{minimize_stages.GRAPH_FIRST_TAG}' in journal
    assert wide.passes == SCHEDULE  # at R the pins first: its headroom is larger


def test_the_margin_comes_from_the_twin_of_the_graph_stage_s_result_once(
    repro: Path, tmp_path: Path
) -> None:
    """The original's twin ran alike (margin MIN_MARGIN); the shrunk model's twin spreads
    (0.8 s and 1.2 s in turn): the margin becomes sqrt 2 x that spread, is saved with the
    calibration, and a resumed oracle judges at it without measuring again. A margin asked
    for stays as asked, with no run."""
    twins = [0.8, 1.2] * (EDGE_RUNS // 2)
    runner = LuckyTwinRunner(list(twins), cost_s=COST_S)
    saved = tmp_path / CALIBRATION
    calibration = Calibration("cpu", (), 4.0, ratio=4.0, baseline_measures=(BASE_S,) * 3)
    oracle = CompileOracle(
        calibration,
        runner,
        judging=replace(JUDGING, margin=None),
        scratch=tmp_path,
        calibration_path=saved,
    )
    assert oracle.margin == MIN_MARGIN
    oracle.measure_edge(parse_file(repro))
    assert [w for w, _, _ in runner.runs] == [0] * EDGE_RUNS  # its twin's runs, no other
    assert oracle.margin == pytest.approx(2**0.5 * run_spread(twins))
    assert oracle.margin > 0.3
    resumed = CompileOracle(
        Calibration.load(saved), runner, judging=replace(JUDGING, margin=None), scratch=tmp_path
    )
    resumed.measure_edge(parse_file(repro))
    assert resumed.margin == oracle.margin and len(runner.runs) == EDGE_RUNS
    asked = CompileOracle(calibration, runner, judging=JUDGING, scratch=tmp_path)
    asked.measure_edge(parse_file(repro))
    assert asked.margin == 0.0 and len(runner.runs) == EDGE_RUNS


def test_a_run_with_a_graph_stage_measures_its_result_s_twin_before_the_pins_and_resumes(
    repro: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the graph stage and the passes at R, EDGE_RUNS runs of the stage's result's
    twin, kept with the calibration; a resumed run measures none; an original with no
    graph stage (narrow: the graph passes lead at R) keeps the original's twin's spread."""
    out = tmp_path / "w.py"
    wide = _minimize(repro, out, WidthRunner(endless=16), monkeypatch, max_calls=6, margin=None)
    assert wide.graph_first is not None and wide.margin_used == MIN_MARGIN  # twins alike
    work = out.with_name(out.name + ".work")
    edge = Calibration.load(work / CALIBRATION).edge_measures
    assert edge == (BASE_S,) * EDGE_RUNS
    controls = [json.loads(line) for line in (work / CONTROLS).read_text().splitlines()]
    assert [len(c["control"]["measures"]) for c in controls].count(EDGE_RUNS) == 1
    _minimize(repro, out, WidthRunner(endless=16), monkeypatch, resume=True, margin=None)
    controls = [json.loads(line) for line in (work / CONTROLS).read_text().splitlines()]
    assert [len(c["control"]["measures"]) for c in controls].count(EDGE_RUNS) == 1
    narrow_out = tmp_path / "n.py"
    narrow = _minimize(
        repro, narrow_out, WidthRunner(cost_s=0.02), monkeypatch, max_calls=3, margin=None
    )
    assert narrow.graph_first is None
    narrow_work = narrow_out.with_name(narrow_out.name + ".work")
    assert Calibration.load(narrow_work / CALIBRATION).edge_measures == ()


class PhasedRunner(WidthRunner):
    """A WidthRunner whose stopped runs leave samples: spot `trace` for their first
    1.5 s, then `gcd` (a long original's hot spot, reached after its kill point)."""

    def run(self, job: Job, limits: Limits) -> Run:
        run = super().run(job, limits)
        if run.exit.reason != "threshold":
            return run
        lines = ["p trace", "n 0 trace", "n 1 gcd"]
        for tenth in range(1, int(run.exit.cpu_s * 10) + 1):  # a sample every 0.1 s
            lines += ["p lowering"] if tenth == 16 else []
            lines.append(f"s {tenth / 10} {tenth / 10} {0 if tenth < 16 else 1}")
        return replace(run, profile=Profile.parse("\n".join(lines)))


def test_the_original_is_judged_on_what_its_longer_run_did_up_to_the_kill_point(
    repro: Path, tmp_path: Path
) -> None:
    """The run sampled longer for the reference votes like a run stopped at the kill point:
    its later hot spot, which the runs stopped there never reach, is not held against it."""
    runner = PhasedRunner()
    judging = Judging(signature=True, margin=0.0, confirm=0, timeout_s=600.0)
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=judging,
        threshold_s=1.0,
        scratch=tmp_path,
    )
    assert oracle.calibration.signature().names[0] == "gcd"  # the reference's hot spot
    first = oracle(Candidate.read(repro.read_text()))
    assert first.status == "slow" and len(runner.runs) == 3


class LuckyRunner(WidthRunner):
    """The first run of a model with `width` free symbols is stopped at its kill point
    whatever it costs: a lucky kill, as a noisy machine makes at the edge. Its later runs
    cost what they do. `times` bounds how many models get one (None: every new one)."""

    def __init__(self, width: int, times: int | None = None) -> None:
        super().__init__(endless=16)
        self.width, self.times, self.lucky = width, times, 0
        self.seen: set[str] = set()

    def run(self, job: Job, limits: Limits) -> Run:
        source = job.script.read_text()
        new = source not in self.seen
        self.seen.add(source)
        lucky = self.times is None or self.lucky < self.times
        width = len(parse_file(job.script).hints)
        if new and lucky and limits.kill_at is not None and width == self.width:
            self.lucky += 1
            self.runs.append((width, "preserved", limits))
            killed = Exit("threshold", limits.kill_at, limits.kill_at, -15, True)
            return Run(killed, None, None, "")
        return super().run(job, limits)


def test_a_walked_back_reduction_goes_on_from_the_model_that_re_verified(
    repro: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One lucky kill accepts a 3-symbol model that is not slow (1 + 0.2 w² < 4 below
    w = 4); re-verification walks back, and the reduction goes on from there to the
    1-minimal result a run without the lucky kill finds."""
    runner = LuckyRunner(width=3, times=1)
    report = _minimize(repro, tmp_path / "min.py", runner, monkeypatch)
    assert runner.lucky == 1
    assert report.walked_back is not None and report.walked_back >= 1
    assert report.final.free_symbols == 4 and report.fixpoint and report.reverified
    assert "1-minimal at 4x" in minimize_record.end_line(tmp_path / "min.py", report)


def test_a_reduction_that_keeps_walking_back_is_not_called_minimal(
    repro: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = LuckyRunner(width=3)  # every new 3-symbol model: a lucky kill
    report = _minimize(repro, tmp_path / "min.py", runner, monkeypatch)
    assert runner.lucky >= 1 + minimize_stages.REDUCE_AGAIN
    assert report.reverified and not report.fixpoint and report.stopped_by is None
    assert report.final.free_symbols >= 4
    line = minimize_record.end_line(tmp_path / "min.py", report)
    assert ", 1-minimal at" not in line and "not 1-minimal: re-verification walked back" in line


class SpotRunner(WidthRunner):
    """A WidthRunner whose runs leave samples, one per 0.1 s of CPU: a twin spends its
    time in `lower`; a candidate in `lower` for the twin's BASE_S, then, of the time its
    symbols add, the share `gcd_share[width]` (default 0.9) in `gcd`, the rest in `other`."""

    def __init__(self, gcd_share: dict[int, float]) -> None:
        super().__init__()
        self.gcd_share = gcd_share

    def run(self, job: Job, limits: Limits) -> Run:
        run = super().run(job, limits)
        width = self.runs[-1][0]
        share = self.gcd_share.get(width, 0.9)
        lines = ["n 0 lower", "n 1 gcd", "n 2 other"]
        for tenth in range(1, round(run.exit.cpu_s * 10) + 1):
            added = tenth - 10 * BASE_S  # tenths beyond the twin's work
            spot = 0 if width == 0 or added <= 0 else 1 if (added % 20) < 20 * share else 2
            lines.append(f"s {tenth / 10} {tenth / 10} {spot}")
        return replace(run, profile=Profile.parse("\n".join(lines)))


def test_the_guard_judges_a_candidate_on_what_it_spends_beyond_its_twin(
    repro: Path, tmp_path: Path
) -> None:
    """Stopped at 4.4x its twin (the band), a candidate spends ~1/4 of its time on the
    twin's own work. Half of the rest in the original's hot spot is the same reason (40 %
    of all its time, under the 44 % needed of all of it); 15 % is another."""
    runner = SpotRunner({12: 0.45, 11: 0.15})
    judging = replace(JUDGING, signature=True, top=1)
    oracle = CompileOracle.create(
        Candidate.read(repro.read_text()),
        runner=runner,
        judging=judging,
        ratio=4.0,
        scratch=tmp_path,
    )
    assert oracle.calibration.signature(top=1).names == ("gcd",)  # 0.87 of the reference run
    twin = oracle.controls.get(control(Candidate.read(repro.read_text()), "static").key)
    assert twin is not None and set(twin.spots) == {"lower"}
    same = oracle(_pinned(repro, 4))  # 12 symbols: 29.8 s, stopped at 4.4 s
    assert same.status == "slow", same.detail
    other = oracle(_pinned(repro, 5))  # 11 symbols: 25.2 s, stopped at 4.4 s
    assert other.status == "slipped"
    assert "15% of its time beyond its twin's there" in other.detail


class TwinRunner(WidthRunner):
    """A WidthRunner whose static twins cost `twin_s`, whatever the candidates cost."""

    def __init__(self, twin_s: float = BASE_S) -> None:
        super().__init__()
        self.twin_s = twin_s

    def cost(self, width: int, mode: str) -> float:
        return self.twin_s if width == 0 else super().cost(width, mode)


FLOOR_S = 5.5  # over R x a 1 s twin: 5 symbols (1 + 0.2 * 25 = 6 s) are slow, 4 (4.2 s) not


def _floored(repro: Path, runner: WidthRunner, scratch: Path) -> CompileOracle:
    """The oracle at R = 4 with the floor at FLOOR_S, calibrated on `repro`."""
    original = Candidate.read(repro.read_text())
    return CompileOracle.create(
        original, runner=runner, judging=JUDGING, floor_s=FLOOR_S, scratch=scratch
    )


def test_a_candidate_whose_r_times_its_twin_is_under_the_floor_must_run_to_the_floor(
    repro: Path, tmp_path: Path
) -> None:
    runner = TwinRunner(twin_s=0.1)  # R x the twin: 0.4 s
    oracle = _floored(repro, runner, tmp_path)
    assert oracle.calibration.floor_s == FLOOR_S and oracle.threshold_s == FLOOR_S
    # 4 symbols: 4.2 s is 42x its twin, but under the floor: not slow
    fast = oracle(_pinned(repro, 12))
    assert fast.status == "fast" and fast.ratio == pytest.approx(42.0)
    assert runner.runs[-1][2].kill_at == pytest.approx(FLOOR_S * 1.1)  # the band above it
    assert oracle(_pinned(repro, 11)).status == "slow"  # 5 symbols: 6 s
    # every limit is R x the twin or the floor, whichever is longer; the graph stage's
    # oracle raises both
    higher = oracle.scaled(2.0)
    assert higher.calibration.floor_s == 2 * FLOOR_S and higher.calibration.ratio == 8.0


def test_re_verification_checks_r_times_the_fresh_twin_not_the_floor(
    repro: Path, tmp_path: Path
) -> None:
    """A result judged at the floor during the reduction is re-verified at R x its twin
    measured afresh: the floor keeps the reduction off short runs, but it is CPU seconds,
    which the load moves, so a quieter machine would take a result slow at R under it. It
    never lets a result under R x its twin through either."""
    runner = TwinRunner()
    oracle = _floored(repro, runner, tmp_path)
    result = _pinned(repro, 11)  # 5 symbols: 6 s, 6x its twin
    assert oracle(result).status == "slow"
    check = oracle.reverify(result)
    assert check.passed and [lim.kill_at for _, _, lim in runner.runs[-3:]] == [4.0] * 3
    runner.twin_s = 2.0  # measured afresh, the twin takes 2 s: R x it is 8 s
    check = oracle.reverify(result)
    assert not check.passed and check.baseline_s == 2.0
    assert [lim.kill_at for _, _, lim in runner.runs[-3:]] == [8.0] * 3
    assert all(v.ratio == pytest.approx(3.0) for v in check.verdicts)


def test_minimize_with_a_floor_ends_at_the_floor_and_at_r_and_records_it(
    repro: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = WidthRunner(endless=16)
    report = _minimize(repro, tmp_path / "min.py", runner, monkeypatch, floor=FLOOR_S)
    # 1-minimal at the floor: 5 symbols (6 s), where R x the twin alone stops at 4 (4.2 s)
    assert report.final.free_symbols == 5 and report.fixpoint and report.reverified
    assert report.final.ratio is not None and report.final.ratio >= report.ratio == 4.0
    assert report.floor_s == FLOOR_S and report.options.floor == FLOOR_S
    assert report.threshold_s == FLOOR_S  # the original's limit: the floor, over 4 x 1 s
    # every candidate was stopped at the floor (+ the band; margin 0), none at R x its twin:
    # the floor raised twice in the graph stage, 8 x for the reference run; only
    # re-verification checks R x the twin, 1.5 x that for the program's width
    stops = {round(lim.kill_at, 3) for w, _, lim in runner.runs if w and lim.kill_at}
    cap, clear = minimize_stages.GRAPH_FIRST_CAP, minimize_program.PROGRAM_CLEAR
    floors = {FLOOR_S, FLOOR_S * 1.1, FLOOR_S * cap * 1.1, 8 * FLOOR_S}
    assert stops <= {round(s, 3) for s in floors} | {4.0, 4.0 * clear}
    line = minimize_record.end_line(tmp_path / "min.py", report)
    assert line.endswith(", 1-minimal at 4x, at least 5.5 s (floor); " + _through(report))
    judged = json.loads((tmp_path / "min.py.work" / "judged_by.json").read_text())
    assert judged["floor"] == FLOOR_S


def _through(report: RunRecord) -> str:
    assert report.program_check is not None
    return minimize_record.through_program(report.program_check)


def test_an_original_under_the_floor_is_not_slow_and_says_so(
    repro: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = WidthRunner()  # 16 symbols: 52.2 s, 52x its twin
    monkeypatch.setattr(minimize_oracle, "remote_runner", lambda *_: runner)
    outcome = minimize_mod.minimize(
        minimize_mod.Options(repro=repro, out=tmp_path / "m.py", progress=False, floor=60.0)
    )
    assert outcome.exit_code == 1
    assert "at least 60 s cpu (--floor)" in outcome.message


def test_a_journal_judged_before_the_floor_resumes_at_floor_0(repro: Path) -> None:
    model = parse_file(repro)
    old = minimize_mod.judged_by(minimize_mod.Options(repro=repro, floor=0.0), model)
    assert "floor" not in old  # what a run before the floor wrote, and --resume compares
    default = minimize_mod.judged_by(minimize_mod.Options(repro=repro), model)
    assert default["floor"] == DEFAULT_FLOOR_S > 0
    absolute = minimize_mod.Options(repro=repro, threshold=3.0)
    assert "floor" not in minimize_mod.judged_by(absolute, model)


def test_in_ratio_mode_a_model_with_no_free_symbol_is_refused_without_a_run(
    repro: Path, tmp_path: Path
) -> None:
    """It is its own static twin: its ratio is 1. Against an absolute threshold or the
    independent retrace it is a candidate like any other."""
    model = parse_file(repro)
    none_left = PIN.apply(model, [Pin(n) for n in model.hints])
    one_left = PIN.apply(model, [Pin(n) for n in list(model.hints)[1:]])
    assert none_left is not None and one_left is not None and not none_left.hints

    def oracle(**options: object) -> CompileOracle:
        calibration = Calibration("cpu", (), 4.0, baseline_measures=(BASE_S,) * 3, **options)  # type: ignore[arg-type]
        return CompileOracle(calibration, WidthRunner(), judging=JUDGING, scratch=tmp_path)

    ratio = oracle(ratio=4.0)
    assert ratio.refuses(none_left) and not ratio.refuses(one_left)
    assert not oracle(ratio=4.0, baseline="independent").refuses(none_left)
    assert not oracle().refuses(none_left)  # an absolute threshold


def test_the_result_s_program_runs_where_its_width_family_is_clearly_slow(
    repro: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1-minimal at 4x, the result (4 symbols: 1 + 0.2 * 16 = 4.2 s against a 1 s twin) sits
    at R, where a run of its program says slow or not by the noise; its program runs by
    default at 5 symbols, the first member of its width family still slow at 1.5 x R on
    fresh runs (6.0 s), and that is where its check runs."""
    out = tmp_path / "min.py"
    checked: list = []
    report = _minimize(repro, out, WidthRunner(endless=16), monkeypatch, checked=checked)
    assert report.final.free_symbols == 4
    assert minimize_program.PROGRAM_CLEAR == 1.5
    text = (tmp_path / "min.program.py").read_text()
    assert 'p.add_argument("--n", type=int, default=5,' in text
    assert "--n 4 is min itself" in text
    assert [c["n"] for c in checked] == [5]
