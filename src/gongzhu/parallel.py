"""Many bot-only deals or matches across CPU cores: the documented public path.

The code lives in the playing layer, :mod:`gongzhu.ai.parallel`; this module
re-exports its simulation API, whose ``repr``, pickles and API reference name this path.
"""

from gongzhu.ai.parallel import BotTable, Simulation, play_task, simulate, task_seed

__all__ = ["BotTable", "Simulation", "play_task", "simulate", "task_seed"]
