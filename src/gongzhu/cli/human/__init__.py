"""A person plays one seat of a whole match against the library's bots (``play --human SEAT``).

On a terminal it reads what is typed; otherwise it reads one answer a line
(a card, ``pass`` at the exposure question), echoing each answer so a
transcript reads like a session. The seats are named by compass direction,
the human sitting South and the others following the rule set's direction
of play. The match is saved after every action (:mod:`gongzhu.cli._save`),
and ``--resume FILE`` goes on from a save exactly where it stopped.

The package's modules: :mod:`~gongzhu.cli.human.start` (the command),
:mod:`~gongzhu.cli.human.game` (one match), :mod:`~gongzhu.cli.human.display`
(what the table shows), :mod:`~gongzhu.cli.human.console` (the terminal and the
setup screen), :mod:`~gongzhu.cli.human.words` (what a person types).
"""

from __future__ import annotations

from gongzhu.cli.human.console import _Console as _Console
from gongzhu.cli.human.console import setup_screen
from gongzhu.cli.human.game import _Game as _Game
from gongzhu.cli.human.game import decision_seed
from gongzhu.cli.human.start import play_human, resume_human
from gongzhu.cli.human.words import parse_typed_card, parse_typed_cards, rules_title

__all__ = [
    "decision_seed",
    "parse_typed_card",
    "parse_typed_cards",
    "play_human",
    "resume_human",
    "rules_title",
    "setup_screen",
]
