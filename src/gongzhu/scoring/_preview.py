"""What exposing one card changes: :func:`exposure_preview` and :class:`ExposurePreview`.

Part of :mod:`gongzhu.scoring` (import the names from there).
"""

from __future__ import annotations

import attrs

from gongzhu._base.frozen import guard_setstate, refuse_reinit
from gongzhu._base.text import brief
from gongzhu.cards import ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER, Card
from gongzhu.errors import DealError
from gongzhu.rules import RuleSet
from gongzhu.scoring._input import _DEFAULT_RULES, _one_card

__all__ = ["ExposurePreview", "exposure_preview"]


@attrs.frozen
class ExposurePreview:
    """What exposing one card changes, for an exposure panel (seeds/001: "Pig −100 → −200").

    ``before``/``after`` are the card's value (pig, sheep), the hearts
    multiplier (A♥) or the transformer's multiplier (10♣); ``name`` says which.

    >>> p = exposure_preview("JD")
    >>> p.name, p.before, p.after, str(p)
    ('Sheep', 100, 200, 'Sheep +100 → +200')
    """

    card: Card
    name: str
    before: int
    after: int
    lone_before: int | None = None
    """For 10♣: the lone bonus unexposed and exposed; for A♥: the all-hearts line."""
    lone_after: int | None = None

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self, "card", DealError)

    def __str__(self) -> str:
        if self.card is TRANSFORMER:
            return (
                f"{self.name} ×{self.before} → ×{self.after}"
                f" (alone {self.lone_before:+d} → {self.lone_after:+d})"
            )
        if self.card is ACE_OF_HEARTS:
            text = f"{self.name} ×{self.before} → ×{self.after}"
            if self.lone_before is not None and self.lone_after is not None:
                text += f" (all hearts {self.lone_before:+d} → {self.lone_after:+d})"
            return text
        return f"{self.name} {self.before:+d} → {self.after:+d}"


def exposure_preview(
    card: Card | str, *, rules: RuleSet | str = _DEFAULT_RULES, factor: int | None = None
) -> ExposurePreview:
    """What exposing ``card`` would change under ``rules`` (``factor`` defaults to face up).

    >>> from gongzhu import TRANSFORMER
    >>> str(exposure_preview("QS"))
    'Pig -100 → -200'
    >>> str(exposure_preview(TRANSFORMER))
    'Transformer ×2 → ×4 (alone +50 → +100)'
    >>> str(exposure_preview("AH")), str(exposure_preview("JD"))
    ('Hearts ×1 → ×2 (all hearts +200 → +400)', 'Sheep +100 → +200')
    """
    if isinstance(rules, str):  # a preset's name
        rules = RuleSet.preset(rules)
    if not isinstance(rules, RuleSet):
        raise DealError(f"rules must be a RuleSet, got {type(rules).__name__}")
    if factor is not None and (
        not isinstance(factor, int) or isinstance(factor, bool) or not 1 <= factor <= 64
    ):
        raise DealError(f"exposure factor must be an int 1-64, got {brief(factor)}")
    if isinstance(card, str):
        card = _one_card(card)
    if not isinstance(card, Card) or card not in rules.exposable:
        shown = card if isinstance(card, Card) else brief(card)
        raise DealError(f"{shown} cannot be exposed under these rules")
    f = factor if factor is not None else rules.face_up_factor
    if card is PIG:
        return ExposurePreview(card, "Pig", rules.pig_value, rules.pig_value * f)
    if card is SHEEP:
        after = rules.effective_exposed_sheep_value * f // 2
        return ExposurePreview(card, "Sheep", rules.sheep_value, after)
    if card is TRANSFORMER:
        bonus = rules.transformer_bonus
        return ExposurePreview(card, "Transformer", 2, 2 * f, bonus, bonus * f)
    slam = rules.all_hearts_value
    return ExposurePreview(card, "Hearts", 1, f, slam, None if slam is None else slam * f)


guard_setstate(ExposurePreview, "card", DealError)

# The methods' doctests run here, in their own module (the package sets the classes'
# __module__ to its public path, where a doctest finder would skip them).
__test__ = {"ExposurePreview": ExposurePreview}
