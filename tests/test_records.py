"""The typed records on disk: every file the tool wrote loads, and anything else is one line.

`tests/records/` holds report.json files as `symshrink minimize` wrote them at 550e771,
before this module existed (a `--test` run, a ratio run and an absolute-threshold run of
the README example, each cut short by --max-calls): they must keep loading. The corpus's
case.json files must load and write back to what they hold.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from symshrink.errors import ReproError
from symshrink.oracle.controls import ControlTime, ControlTimes
from symshrink.passes import GRAPH_PASSES, SCHEDULE
from symshrink.records import Case, ProgramCheck, ProgramSweep, RunRecord, WidthPoint

HERE = Path(__file__).resolve().parent
CASES = sorted((HERE.parent / "corpora").glob("*/case.json"))
REPORTS = sorted((HERE / "records").glob("report_*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.parent.name for p in CASES])
def test_every_corpus_case_loads_and_writes_back_what_it_holds(path: Path) -> None:
    """So a sweep rewriting an entry changes only its `smallest_slow`."""
    data = json.loads(path.read_text())
    case = Case.load(path)
    assert case.to_dict() == data
    assert (
        case.name == path.parent.name and case.after.free_symbols == data["after"]["free_symbols"]
    )
    assert case.reference is not None and case.reference.spots
    assert case.smallest_slow is not None and case.smallest_slow.points


@pytest.mark.parametrize("path", REPORTS, ids=[p.stem for p in REPORTS])
def test_reports_written_before_the_records_load(path: Path) -> None:
    data = json.loads(path.read_text())
    record = RunRecord.load(path)
    assert RunRecord.from_dict(record.to_dict()) == record
    # What the file holds reads back as written; a null the old writer wrote for a field
    # it now leaves out (R at an absolute threshold) is the same None.
    assert _without_nulls(record.to_dict()) == _without_nulls({"format": 1, **data})
    assert record.initial.free_symbols == data["initial"]["free_symbols"] == 8 or (
        record.oracle == "test"
    )
    assert record.stopped_by is not None and record.stopped_by.startswith("max_calls=")
    # written before the kill-point floor: none, neither used nor asked for
    assert record.floor_s is None and record.options.floor is None
    if record.oracle == "compile":
        assert record.reverify_verdicts and record.reverify_verdicts[0].status in (
            "slow",
            "fast",
            "error",
            "slipped",
        )
        assert record.threshold_s is not None and record.margin_used is not None
        assert (record.ratio is None) == (data["ratio"] is None) == (record.baseline is None)
    else:
        assert record.ratio is None and record.reverify_verdicts is None


def _without_nulls(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if v is not None}


def _ratio_report() -> dict[str, Any]:
    return json.loads((HERE / "records" / "report_ratio_550e771.json").read_text())


def _edited(tmp_path: Path, edit: Any) -> Path:
    """The ratio run's report.json edited by `edit(data)` (or replaced by a string)."""
    path = tmp_path / "report.json"
    if isinstance(edit, str):
        path.write_text(edit)
    else:
        data = _ratio_report()
        edit(data)
        path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ('{"repro": ', "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        (lambda d: d.update(format=7), "format 7: this symshrink reads report.json of format 1"),
        (lambda d: d.update(colour="red"), "colour: not a field of this record"),
        (lambda d: d["final"].update(free_symbols="5"), "final.free_symbols: expected int"),
        (lambda d: d["options"].update(jobs=True), "options.jobs: expected int, got True"),
        (lambda d: d.update(oracle="psychic"), "oracle: expected one of 'test', 'compile'"),
        (lambda d: d["initial"].pop("expr_ops"), "initial.expr_ops: missing"),
        (lambda d: d["per_pass"].update(x={"calls": 1.5}), "per_pass.x.calls: expected int"),
        (lambda d: d["reverify_verdicts"][1].pop("status"), "reverify_verdicts[1]: not a Verdict"),
    ],
)
def test_a_file_that_is_not_a_record_is_one_error_naming_it(
    tmp_path: Path, edit: Any, message: str
) -> None:
    path = _edited(tmp_path, edit)
    with pytest.raises(ReproError) as caught:
        RunRecord.load(path)
    assert caught.value.path == str(path)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_case_of_another_format_is_refused(tmp_path: Path) -> None:
    data = json.loads(CASES[0].read_text())
    path = tmp_path / "case.json"
    for fmt, said in ((1, "format 1:"), (None, "no format:")):
        path.write_text(json.dumps({**data, "format": fmt} if fmt else _no_format(data)))
        with pytest.raises(ReproError, match=said):
            Case.load(path)


def _no_format(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "format"}


def test_save_then_load_is_the_same_record(tmp_path: Path) -> None:
    point = WidthPoint(
        width=2, free_symbols=2, verdict="fixed", entry_s=0.3, twin_s=0.2, ratio=1.5,
        phases={"trace": 0.1},
    )  # fmt: skip
    assert WidthPoint.from_dict(point.to_dict()) == point and point.status == "ok"
    check = ProgramCheck(verdict="slow", why="3 of 3", at_ratio=4.0, n=8, dynamic_s=(2.0,))
    sweep = ProgramSweep(key="k", timeout_s=60.0, ratio=4.0, checks=(check,))
    sweep.save(tmp_path / "w.json")
    assert ProgramSweep.load(tmp_path / "w.json") == sweep
    record = RunRecord.load(REPORTS[0])
    record.save(tmp_path / "r.json")
    assert RunRecord.load(tmp_path / "r.json") == record
    assert not list(tmp_path.glob(".*.tmp"))  # written atomically


def test_a_twins_time_keeps_its_spots_and_an_older_one_loads_without(tmp_path: Path) -> None:
    ControlTimes(tmp_path / "controls.jsonl").put(
        "static:a", ControlTime((0.5, 0.52), spots={"stride_at": 0.12})
    )
    again = ControlTimes(tmp_path / "controls.jsonl")
    assert again.get("static:a") == ControlTime((0.5, 0.52), spots={"stride_at": 0.12})
    # a record written before twins kept their spots
    assert ControlTime.from_dict({"measures": [0.4], "error": None}) == ControlTime((0.4,))


def test_a_record_without_the_order_at_r_had_the_default_one() -> None:
    """Replays (calls_by_pass.py, cluster.py) run the passes at R in the order the run had
    them; a run recorded before the order was kept ran the default schedule."""
    record = RunRecord.load(REPORTS[0])
    assert replace(record, passes=None).order_at_r == SCHEDULE
    led = (*GRAPH_PASSES, *(p for p in SCHEDULE if p not in GRAPH_PASSES))
    assert replace(record, passes=led).order_at_r == led
