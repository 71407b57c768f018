"""Is the candidate still slow, for the same reason? Cheaply and safely.

Parent-side modules import no torch: `import symshrink.oracle` stays cheap; torch is only
imported in children (and in the warm workers they are forked from).
"""

from __future__ import annotations

from symshrink.oracle.base import BaseOracle, Oracle
from symshrink.oracle.calibrate import Calibration, CalibrationError, calibrate
from symshrink.oracle.compile_oracle import CompileOracle, Judging, Reverification
from symshrink.oracle.custom import CallableOracle, CommandOracle
from symshrink.oracle.runner import Workload

__all__ = [
    "BaseOracle",
    "Calibration",
    "CalibrationError",
    "CallableOracle",
    "CommandOracle",
    "CompileOracle",
    "Judging",
    "Oracle",
    "Reverification",
    "Workload",
    "calibrate",
]
