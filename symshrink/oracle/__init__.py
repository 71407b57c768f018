"""Is the candidate still slow, for the same reason? The judging, on `symshrink.sandbox`'s runs.

Calibration of the original, the controls' times, the signature guard, and the oracles:
the compile oracle (timed against a limit), the `--test` command's and a Python callable's.
Running the children is the sandbox's; nothing here starts a process. Parent-side modules
import no torch: `import symshrink.oracle` stays cheap.
"""

from __future__ import annotations

from symshrink.oracle.base import BaseOracle, Reverification
from symshrink.oracle.calibrate import Calibration, CalibrationError, calibrate
from symshrink.oracle.compile_oracle import CompileOracle
from symshrink.oracle.custom import CallableOracle, CommandOracle
from symshrink.oracle.noise import Judging

__all__ = [
    "BaseOracle",
    "Calibration",
    "CalibrationError",
    "CallableOracle",
    "CommandOracle",
    "CompileOracle",
    "Judging",
    "Reverification",
    "calibrate",
]
