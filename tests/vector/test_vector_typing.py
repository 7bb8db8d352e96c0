"""``mypy --strict`` knows the batched engine's names, the Gymnasium vector env included
(it is imported lazily at run time, and declared to type checkers)."""

from __future__ import annotations

from pathlib import Path

import pytest

import gongzhu

api = pytest.importorskip("mypy.api")

PROGRAM = """
from gongzhu.vector import GongzhuVectorEnv, VectorDeal, VectorState, rule_of_thumb

envs = GongzhuVectorEnv(num_envs=4, rules="online")
n: int = envs.num_envs
batch: VectorDeal = envs.batch
state: VectorState = batch.state
cards = rule_of_thumb(state)
reveal_type(envs)
"""


def test_mypy_strict_knows_the_vector_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = Path(gongzhu.__file__).resolve().parent.parent
    if src.name != "site-packages":  # a checkout: the gongzhu under test, not another one
        monkeypatch.setenv("MYPYPATH", str(src))
    program = tmp_path / "uses_the_vector_env.py"
    program.write_text(PROGRAM)
    out, err, _status = api.run(
        ["--strict", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary", str(program)]
    )
    assert 'Revealed type is "gongzhu.vector._env.GongzhuVectorEnv"' in out, out + err
    assert out.count("error:") == 0, out
