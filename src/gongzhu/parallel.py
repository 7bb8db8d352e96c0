"""Many bot-only deals or matches across CPU cores (this path is kept for users).

The code lives in the playing layer, :mod:`gongzhu.ai.parallel`; every name
importable from here in 0.2 still is.
"""

from gongzhu.ai.parallel import BotTable, Simulation, play_task, simulate, task_seed

__all__ = ["BotTable", "Simulation", "play_task", "simulate", "task_seed"]
