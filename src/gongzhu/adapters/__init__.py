"""Environments for learning agents, each behind the ``rl`` extra.

* :mod:`gongzhu.adapters.pettingzoo` — a PettingZoo AEC environment, one agent per seat;
* :mod:`gongzhu.adapters.gymnasium` — a single-agent Gymnasium environment
  (``gongzhu/Gongzhu-v0``), the other seats played by library bots;
* :mod:`gongzhu.adapters.openspiel` — the OpenSpiel game ``python_gongzhu``.

All three are thin layers over :class:`~gongzhu.Round` and the action ids and
observations of :mod:`gongzhu.protocol` (layouts in the docs page "Agents and
clients"), and share one driver, so a seed and a sequence of action ids give
the same deal through every one of them. Importing :mod:`gongzhu` imports none
of them; importing one needs its package: install the ``rl`` extra with
``pip install ".[rl]"`` from a checkout of gongzhu.
"""
