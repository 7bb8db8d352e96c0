"""The pure :func:`score` of one deal, its line-by-line result, and exposure previews.

Scoring follows specification §3 (the order of seeds/000 §08): hearts (with the
small slam and A♥ exposure), pig, sheep, base, then the transformer's ×2/×4
or lone bonus, then the deal total.

>>> s = score(["10C QS 7H", "AC JD", "AH KH"], exposed="QS TC")
>>> s.totals                         # seeds/000 §07: 4 × (−200 − 10)
(-840, 100, -90)
>>> print(s[0].sheet())
seat 0: 10♣ 7♥ Q♠
  ① hearts          -10
  ② pig            -200
  ③ sheep             0
  ④ base           -210
  ⑤ transformer      ×4
  ⑥ deal           -840
  ⑦ total          -840
"""

from __future__ import annotations

from gongzhu.scoring._input import exposure_factors
from gongzhu.scoring._preview import ExposurePreview, exposure_preview
from gongzhu.scoring._result import DealScore, PlayerScore, TransformerEffect
from gongzhu.scoring._result import score_of_state as score_of_state  # for Round.score
from gongzhu.scoring._score import score

__all__ = [
    "DealScore",
    "ExposurePreview",
    "PlayerScore",
    "TransformerEffect",
    "exposure_factors",
    "exposure_preview",
    "score",
]

for _public in (DealScore, ExposurePreview, PlayerScore, TransformerEffect, exposure_factors,
                exposure_preview, score):  # fmt: skip
    _public.__module__ = __name__  # documented and shown at the public path
