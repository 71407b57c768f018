"""Child side: run one candidate under the stack sampler and write what happened to a file.

Runs either in a fresh interpreter (`python -m symshrink.sandbox.child SPEC.json`) or in a
process forked from a warm worker; both call `run_child`. It imports torch only through the
candidate or `symshrink.retrace`, never itself.
"""

from __future__ import annotations

import json
import os
import runpy
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from symshrink.sandbox.sampler import StackSampler

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_TERMINATED = 143


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


def _describe(exc: BaseException) -> str:
    """One line for the verdict's detail; the full traceback goes to the child's stderr."""
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}"[:500] if first else type(exc).__name__


def _run_script(script: Path, argv: list[str]) -> dict[str, Any]:
    start = time.perf_counter()
    sys.argv = [str(script), *argv]
    runpy.run_path(str(script), run_name="__main__")
    return {"error": None, "phases": {"run": time.perf_counter() - start}}


def _run_retrace(script: Path, options: dict[str, Any]) -> dict[str, Any]:
    from symshrink.retrace import retrace  # imports torch: only ever in the child

    return json.loads(retrace(script, **options).to_json())


def run_child(spec: dict[str, Any]) -> int:
    """Run the candidate described by `spec`; return the exit code for the process."""
    os.environ.update(spec.get("env", {}))
    result_path = Path(spec["result"])
    sampler = StackSampler(Path(spec["samples"]), **spec.get("sampler", {}))

    def on_term(signum: int, frame: object) -> None:
        sampler.stop()
        os._exit(EXIT_TERMINATED)

    signal.signal(signal.SIGTERM, on_term)
    sampler.start()
    script = Path(spec["script"])
    code = EXIT_OK
    try:
        if spec.get("entry", "script") == "retrace":
            result = _run_retrace(script, spec.get("retrace", {}))
        else:
            result = _run_script(script, spec.get("argv", []))
    except SystemExit as exc:
        ok = exc.code in (None, 0)
        result = {"error": None if ok else f"SystemExit: {exc.code}", "phases": {}}
    except BaseException as exc:
        traceback.print_exc()
        result = {"error": _describe(exc), "phases": {}}
    if result.get("error"):
        code = EXIT_ERROR
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    sampler.stop()
    _write_json(result_path, result)
    return code


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text())
    code = run_child(spec)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # skip interpreter teardown: torch's can take a second and is not ours


if __name__ == "__main__":
    main()
