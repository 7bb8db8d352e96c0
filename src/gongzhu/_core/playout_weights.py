"""The playout policy's weights (:mod:`gongzhu._core.playout`). Private.

Written by this command (do not edit by hand)::

    python tools/train_playout.py --deals 4000 --seed 0 --out src/gongzhu/_core/playout_weights.py
"""

from __future__ import annotations

WEIGHTS: tuple[float, ...] = (
    5.282355,
    -3.531228,
    -0.206314,
    -0.46407,
    4.808249,
    -0.569184,
    -3.698754,
    0.364958,
    -3.147815,
    0.036939,
    -1.234086,
    -1.148184,
    0.370544,
    0.897129,
    1.252811,
    1.378933,
    -1.220048,
    2.593491,
    -0.065871,
    2.247355,
    -0.509128,
    -0.439911,
    1.775741,
    -7.861447,
    -0.102561,
    0.165451,
    -1.476212,
    4.582028,
    5.192491,
    0.679472,
    2.152338,
    -0.880083,
    -0.448737,
    9.295219,
)
