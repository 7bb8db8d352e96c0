"""examples/server.py: its self-test plays a deal over real sockets and exits 0 (issue #13)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_server_plays_a_deal_with_bot_clients_and_reports_the_errors() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "server.py")],
        capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "totals" in out.stdout
    assert "NOT_YOUR_TURN, INVALID_CHOICE" in out.stdout
