"""Where a finished minimize run's oracle calls went: per pass and per verdict, from its journal.

At one job the passes and the search are deterministic: the same answers bring up the same
candidates in the same order. So the run's stages (the graph stage when report.json says
it ran, then every pass at R) are replayed on the original with the journal as the
oracle, and each candidate the journal holds a verdict for is a call of the pass that
asked for it. Verdicts: slow, fast, untraceable (its static twin does not trace or
fails, so it was never run), error (it ran and failed), slipped (slow, but not in the
original's hot spots). A run that walked back reduced again from a re-verified model;
the calls after the first reduction are counted apart, by verdict only.

    python benchmarks/calls_by_pass.py WORK_DIR [WORK_DIR ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symshrink.minimize_stages import GRAPH_FIRST_TAG
from symshrink.passes import GRAPH_PASSES, schedule
from symshrink.records import JOURNAL, REPORT, RunRecord
from symshrink.reducer import Reducer, Stats
from symshrink.repro.model import Repro
from symshrink.repro.parse import parse_file
from symshrink.repro.render import canonical_key
from symshrink.verdict import Verdict

KINDS = ("slow", "fast", "untraceable", "error", "slipped")


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


class Replay:
    """The journal as the oracle: each key's first verdict; each answer noted with its pass."""

    def __init__(self, entries: list[tuple[str, Verdict]]) -> None:
        self.first: dict[str, Verdict] = {}
        for key, verdict in entries:
            self.first.setdefault(key, verdict)
        self.calls: list[tuple[str, str, str]] = []  # (stage, pass, kind)
        self.keys: list[str] = []  # the keys the replay's calls asked for, in order
        self.missing = 0
        self.order: list[str] = []  # the journal's keys after the original's, as written

    def test(self, stage: str, reducer: list[Reducer], tag: str) -> Callable[[Repro], Verdict]:
        """The oracle of one stage (`reducer[0]` says which pass asks)."""

        def judge(repro: Repro) -> Verdict:
            verdict = self.first.get(tag + canonical_key(repro))
            if verdict is None:  # not asked in the run: the replay left its path
                self.missing += 1
                return Verdict(status="fast", interesting=False)
            self.calls.append((stage, reducer[0].stats.current_pass or "?", kind(verdict)))
            self.keys.append(tag + canonical_key(repro))
            return verdict

        return judge


def replay(work: Path) -> tuple[RunRecord | None, Replay, int]:
    """The replay of the run in `work`; a run stopped before its record (no report.json)
    is replayed from the original beside its work directory."""
    record = RunRecord.load_from(work) if (work / REPORT).is_file() else None
    entries = journal_order(work / JOURNAL)
    if record is not None:
        original = parse_file(Path(record.repro))
    else:
        original = parse_file(work.with_name(work.name.removesuffix(".min.py.work") + ".py"))
    rep = Replay(entries)
    rep.order = [key for key, _ in entries[1:]]  # the original's verdict is first
    stats = Stats()
    holder: list[Reducer] = []
    start = original
    if any(key.startswith(GRAPH_FIRST_TAG) for key, _ in entries):
        graph = Reducer(
            test=rep.test("graph stage", holder, GRAPH_FIRST_TAG),
            passes=schedule(GRAPH_PASSES),
            tag=GRAPH_FIRST_TAG,
            stats=stats,
        )
        holder[:] = [graph]
        start = graph.run(start)
    main = Reducer(test=rep.test("at R", holder, ""), stats=stats)
    holder[:] = [main]
    main.run(start)
    # every oracle call after the first reduction (walked back, reduced again)
    calls = len(entries) - 1 if record is None else record.oracle_calls  # the original's
    return record, rep, max(0, calls - len(rep.calls))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("work_dirs", type=Path, nargs="+")
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
        for stage, name, k in rep.calls:
            rows.setdefault((stage, name), Counter())[k] += 1
        total: Counter[str] = Counter()
        for (stage, name), counts in rows.items():
            total += counts
            cells = " | ".join(str(counts[k]) for k in KINDS)
            print(f"| {stage} | {name} | {sum(counts.values())} | {cells} |")
        cells = " | ".join(str(total[k]) for k in KINDS)
        print(f"| all | | {sum(total.values())} | {cells} |")
        same = rep.keys == rep.order[: len(rep.keys)]
        print(f"the replay asked the journal's first {len(rep.keys)} keys in order: {same}")
        if after or rep.missing:
            print(f"after the first reduction (walked back): {after} calls")
            print(f"asked in the replay but not in the run: {rep.missing}")


if __name__ == "__main__":
    main()
