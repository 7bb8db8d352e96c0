"""The playout policy's weights (:mod:`gongzhu._core.playout`). Private.

Written by this command (do not edit by hand)::

    python tools/train_playout.py --games tools/data/hard-mrgreed-0-511.json.gz \\
        --out src/gongzhu/_core/playout_weights.py
"""

from __future__ import annotations

WEIGHTS: tuple[float, ...] = (
    5.234525,
    -3.360629,
    -0.521552,
    -0.96457,
    4.476608,
    -0.377204,
    -3.448544,
    0.330865,
    -3.211708,
    -0.139819,
    -1.086169,
    -0.836864,
    0.310882,
    1.895221,
    1.266268,
    1.426933,
    -1.540352,
    1.710913,
    -0.576047,
    2.287956,
    -0.939561,
    -0.160267,
    0.902141,
    -7.367542,
    -1.834931,
    0.315082,
    3.067892,
    5.287551,
    5.896408,
    0.678286,
    2.219274,
    -2.547608,
    -0.418392,
    7.48313,
)
