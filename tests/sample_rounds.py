"""Rounds that several test modules build (not a test module itself)."""

from __future__ import annotations

from gongzhu import Phase, Round


def exposed_pig_deal() -> Round:
    """A finished deal of the online rules in which seat 0 exposed the pig with no other
    spade and nothing high (a costly exposure: the computer declines it); everyone then
    played the first legal card."""
    mine = ["QS", "2C", "3C", "4C", "5C", "6C", "7C", "2D", "3D", "4D", "5D", "6D", "2H"]
    rest = [r + s for s in "SHDC" for r in "23456789TJQKA" if r + s not in mine]
    rnd = Round.from_hands([mine, rest[0::3], rest[1::3], rest[2::3]], rules="online")
    rnd = rnd.expose("QS", seat=0).pass_exposure()
    while not rnd.is_over:
        rnd = rnd.play(rnd.legal_plays.cards[0])
    return rnd


def settled(rnd: Round) -> Round:
    """``rnd`` with exposure over and no claim pending (where a board can start)."""
    rnd = rnd.pass_exposure()
    while rnd.phase is Phase.CLAIM:
        rnd = rnd.respond(False)
    return rnd
