"""Shuffling and dealing: :func:`deal` and the library's stable shuffle.

A seed deals the same cards on every machine and Python version: the shuffle
draws only ``getrandbits`` from ``random.Random(seed)``.
"""

from __future__ import annotations

from gongzhu.round import deal, match_deal_seed, shuffled_deck

__all__ = ["deal", "match_deal_seed", "shuffled_deck"]

for _public in (deal, match_deal_seed, shuffled_deck):
    _public.__module__ = __name__  # documented and shown at the public path
del _public
