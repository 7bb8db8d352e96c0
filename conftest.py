"""Doctest collection of the optional adapters: skipped when their package is not installed.

``pytest --doctest-modules`` imports every module under src/gongzhu; the adapters
import their framework (the ``rl`` extra), so without it they are left out, not errors.
"""

from __future__ import annotations

from importlib.util import find_spec

collect_ignore_glob = [
    f"src/gongzhu/adapters/{module}.py"
    for module, package in (
        ("pettingzoo", "pettingzoo"),
        ("gymnasium", "gymnasium"),
        ("openspiel", "pyspiel"),
    )
    if find_spec(package) is None
]
# gongzhu.vector needs NumPy (its Gymnasium environment, gymnasium too).
if find_spec("numpy") is None:
    collect_ignore_glob.append("src/gongzhu/vector/*.py")
elif find_spec("gymnasium") is None:
    collect_ignore_glob.append("src/gongzhu/vector/_env.py")
