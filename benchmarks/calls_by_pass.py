"""Where a finished minimize run's oracle calls went: per pass and per verdict, from its journal.

At one job the passes and the search are deterministic: the same answers bring up the same
candidates in the same order. So the run's stages (the graph stage when report.json says
it ran, then every pass at R) are replayed on the original with the journal as the
oracle, and each candidate the journal holds a verdict for is a call of the pass that
asked for it. Verdicts: slow, fast, untraceable (its static twin does not trace or
fails, so it was never run), error (it ran and failed), slipped (slow, but not in the
original's hot spots). A run that walked back reduced again from a re-verified model;
its failed models go from the history and the main stage runs again from the last one
left, as the run did.

    python benchmarks/calls_by_pass.py [--calls] WORK_DIR [WORK_DIR ...]

`--calls` also lists every call in order with its ratio and the bar it was judged at
(R x (1 + margin)): a class of alike symbols is decided by its first verdict in the rounds
that prove, so this shows whether the verdicts that fixed the result's size were close calls.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.baseline import is_own_twin
from symshrink.minimize_stages import (
    GRAPH_FIRST_CAP,
    GRAPH_FIRST_TAG,
    REDUCE_AGAIN,
    graph_reducer,
)
from symshrink.oracle import noise
from symshrink.passes import schedule
from symshrink.records import JOURNAL, REPORT, RunRecord
from symshrink.reducer import Reducer
from symshrink.repro.candidate import Candidate
from symshrink.repro.parse import parse_file
from symshrink.verdict import Verdict

KINDS = ("slow", "fast", "untraceable", "error", "slipped")
GRAPH_STAGE = "graph stage"  # its calls are judged at limits raised by record.graph_first


def kind(verdict: Verdict) -> str:
    """The verdict's kind; an error before any run (its twin fails) is 'untraceable'."""
    if verdict.status == "error" and "control fails" in verdict.detail:
        return "untraceable"
    return verdict.status


def journal_order(path: Path) -> list[tuple[str, Verdict]]:
    """The journal's entries in the order they were written (a key again: walked back)."""
    out = []
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        out.append((entry["key"], Verdict.from_dict(entry["verdict"])))
    return out


@dataclass(frozen=True)
class Call:
    """One call of the replay: the stage and pass that asked, the journal's key and verdict."""

    stage: str
    name: str
    key: str
    verdict: Verdict

    @property
    def kind(self) -> str:
        return kind(self.verdict)


class Replay:
    """The journal as the oracle: each key's first verdict; each answer noted with its pass."""

    def __init__(self, entries: list[tuple[str, Verdict]]) -> None:
        self.first: dict[str, Verdict] = {}
        for key, verdict in entries:
            self.first.setdefault(key, verdict)
        self.calls: list[Call] = []  # in the order the replay asked them
        self.missing = 0
        self.order: list[str] = []  # the journal's keys after the original's, as written

    def test(self, stage: str, reducer: list[Reducer], tag: str) -> Callable[[Candidate], Verdict]:
        """The oracle of one stage (`reducer[0]` says which pass asks)."""

        def judge(candidate: Candidate) -> Verdict:
            verdict = self.first.get(tag + candidate.key)
            if verdict is None:  # not asked in the run: the replay left its path
                self.missing += 1
                return Verdict(status="fast", interesting=False)
            name = reducer[0].stats.current_pass or "?"
            self.calls.append(Call(stage, name, tag + candidate.key, verdict))
            return verdict

        return judge


WALKED_BACK = "not slow again on re-verification"  # minimize_stages' journal word


def replay(work: Path) -> tuple[RunRecord | None, Replay, int]:
    """The replay of the run in `work`; a run stopped before its record (no report.json)
    is replayed from the original beside its work directory. Where re-verification walked
    back (its 'not slow again' verdicts journaled right after a reduction's calls), the
    accepted models it failed go from the history and the main stage runs again from the
    last one left, as `minimize_stages.reduce` does; also returns the calls left over."""
    record = RunRecord.load_from(work) if (work / REPORT).is_file() else None
    entries = journal_order(work / JOURNAL)
    if record is not None:
        original = parse_file(Path(record.repro))
    else:
        original = parse_file(work.with_name(work.name.removesuffix(".min.py.work") + ".py"))
    rep = Replay(entries)
    holder: list[Reducer] = []
    history = [original]
    start = original
    # the compile oracle's refusal in ratio mode: a model with no symbol left is its twin
    ratio = record is None or (record.ratio is not None and record.baseline == "static")
    refuses = is_own_twin if ratio else None
    # the passes at R in the order the run used (a stopped run's: the default order)
    order = schedule(record.order_at_r) if record is not None else schedule()
    main = Reducer(
        test=rep.test("at R", holder, ""),
        refuses=refuses,
        passes=order,
        on_improve=history.append,
        symmetric=record is None or record.oracle == "compile",  # as the run's oracle was
    )
    if any(key.startswith(GRAPH_FIRST_TAG) for key, _ in entries):
        graph = graph_reducer(main, rep.test(GRAPH_STAGE, holder, GRAPH_FIRST_TAG), refuses)
        holder[:] = [graph]
        start = graph.run(start)
    holder[:] = [main]
    main.run(start)
    written = entries[1:]  # the original's verdict is first
    at = len(rep.calls)  # the journal's entries the replay has gone through
    for again in range(1, 1 + REDUCE_AGAIN):
        failed = []
        while at < len(written) and written[at][1].detail.startswith(WALKED_BACK):
            failed.append(written[at])
            at += 1
        if not failed:
            break
        for key, verdict in failed:
            main.journal.put(key, verdict)
        del history[len(history) - len(failed) :]
        before = len(rep.calls)
        main.test = rep.test(f"after walk-back {again}", holder, "")
        main.run(history[-1])
        at += len(rep.calls) - before
    rep.order = [key for key, verdict in written if not verdict.detail.startswith(WALKED_BACK)]
    calls = len(rep.order) if record is None else record.oracle_calls
    return record, rep, max(0, calls - len(rep.calls))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("work_dirs", type=Path, nargs="+")
    ap.add_argument("--calls", action="store_true", help="list every call with its ratio")
    args = ap.parse_args()
    for work in args.work_dirs:
        record, rep, after = replay(work)
        if record is None:
            print(f"\n{work}: stopped before its record; {len(rep.calls) + after} calls journaled")
        else:
            said = f"{record.oracle_calls} oracle calls, walked back {record.walked_back}"
            print(f"\n{work}: {said}")
        print("| stage | pass | calls | " + " | ".join(KINDS) + " |")
        print("|---|---|---:|" + "---:|" * len(KINDS))
        rows: dict[tuple[str, str], Counter[str]] = {}
        for call in rep.calls:
            rows.setdefault((call.stage, call.name), Counter())[call.kind] += 1
        total: Counter[str] = Counter()
        for (stage, name), counts in rows.items():
            total += counts
            cells = " | ".join(str(counts[k]) for k in KINDS)
            print(f"| {stage} | {name} | {sum(counts.values())} | {cells} |")
        cells = " | ".join(str(total[k]) for k in KINDS)
        print(f"| all | | {sum(total.values())} | {cells} |")
        keys = [call.key for call in rep.calls]
        same = keys == rep.order[: len(keys)]
        print(f"the replay asked the journal's first {len(keys)} keys in order: {same}")
        if after or rep.missing:
            print(f"calls the replay did not reach: {after}")
            print(f"asked in the replay but not in the run: {rep.missing}")
        if args.calls:
            print_calls(rep.calls, record)


def print_calls(calls: list[Call], record: RunRecord | None) -> None:
    """Every call in order: its stage, pass, verdict and ratio, and the bar it was judged
    at, R x (1 + margin), and GRAPH_FIRST_CAP x R in the graph stage (its factor raised
    the margin it started with, before `measure_edge` took the one recorded; where the
    floor is longer than R x the twin, the floor decided instead)."""
    at_r = raised = None
    if record is not None and record.ratio is not None:
        at_r = noise.bar(record.ratio, record.margin_used or 0.0)  # R x the twin, as ratios
        raised = record.ratio * GRAPH_FIRST_CAP if record.graph_first else at_r
    print("| call | stage | pass | verdict | ratio | bar |")
    print("|---:|---|---|---|---:|---:|")
    for i, call in enumerate(calls, 1):
        ratio = "" if call.verdict.ratio is None else f"{call.verdict.ratio:.2f}"
        at = raised if call.stage == GRAPH_STAGE else at_r
        shown = "" if at is None else f"{at:.2f}"
        print(f"| {i} | {call.stage} | {call.name} | {call.kind} | {ratio} | {shown} |")


if __name__ == "__main__":
    main()
