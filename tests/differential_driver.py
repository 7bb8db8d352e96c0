"""Plays seeded random deals and reports what happened, for the differential test.

``tests/core/test_compiled_matches_pure.py`` runs the same cases through the compiled build
(in its own process) and through a pure-Python copy of the same sources (this
file run as a script, with ``PYTHONPATH`` pointing at the copy), and compares
the reports. A case is a rule set (``RuleSet.to_dict()``), a seed and a kind:

* ``steps``: the deal is played through the public API with a
  ``random.Random(seed)``: every seat's exposure decision (random exposable
  cards, face down or blind where the rules play them), random legal cards,
  occasional claims and responses, and now and then an illegal attempt (its
  refusal reason is recorded). The trace holds the legal set at every play,
  every refusal, a few views, the history and the score.
* ``rollout``: ``Round.rollout(seed=...)`` from the dealt round and from a
  position a few random plays in.

Script use: ``python differential_driver.py REQUEST.json`` where the file holds
``{"cases": [...], "full": bool}``; the reply on stdout is
``{"compiled": bool, "file": ..., "reports": [...]}``, a SHA-256 digest per
case, or the whole trace when ``full``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import gongzhu
from gongzhu import IllegalActionError, Phase, Round, RuleSet, deal
from gongzhu.rules import ExposureKind

Case = dict[str, Any]


def _undecided(rnd: Round) -> list[int]:
    return [s for s in range(rnd.players) if s not in rnd.exposure_decided]


def _decide_exposures(rnd: Round, rng: random.Random, out: list[str]) -> Round:
    """Every seat that has not decided makes a random exposure decision."""
    rules = rnd.rules
    while rnd.phase is Phase.EXPOSURE and _undecided(rnd):
        undecided = _undecided(rnd)
        rng.shuffle(undecided)
        acted = False
        for seat in undecided:
            held = sorted(rnd.hands[seat] & rules.exposable)
            chosen = [c for c in held if rng.random() < 0.4]
            face_down = rules.exposure_kind is ExposureKind.FACE_DOWN_UP and rng.random() < 0.5
            blind = False
            if rules.blind_exposure and rng.random() < 0.3:
                chosen, blind = [rnd.dealt[seat][0]], True
            for attempt in ((chosen, face_down, blind), ([], False, False)):
                try:
                    rnd = rnd.expose(attempt[0], seat=seat, face_down=attempt[1], blind=attempt[2])
                except IllegalActionError as exc:
                    out.append(f"refused expose {seat} {attempt}: {exc.reason.name}")
                    continue
                out.append(f"expose {seat} {[str(c) for c in attempt[0]]} {attempt[1:]}")
                acted = True
                break
            if acted:
                break
        if not acted:
            out.append("no seat could decide its exposure")
            break
    return rnd


def _respond(rnd: Round, rng: random.Random, out: list[str]) -> Round:
    pending = rnd.claim_pending
    while pending is not None:
        claimer, accepted = pending
        seat = next(s for s in range(rnd.players) if s != claimer and s not in accepted)
        accept = rng.random() < 0.7
        rnd = rnd.respond(accept, seat=seat)
        out.append(f"respond {seat} {accept}")
        pending = rnd.claim_pending
    return rnd


def _try_illegal(rnd: Round, rng: random.Random, out: list[str]) -> None:
    seat = rnd.to_act
    assert seat is not None
    hand = rnd.hands[seat]
    wrong = [c for c in hand if c not in rnd.legal_plays]
    card = rng.choice(wrong) if wrong and rng.random() < 0.7 else rng.choice(list(gongzhu.DECK))
    other = (seat + 1) % rnd.players
    for who in (seat, other):
        try:
            rnd.play(card, seat=who)
        except IllegalActionError as exc:
            out.append(f"refused play {card} by {who}: {exc.reason.name} {exc}")
        else:
            out.append(f"accepted play {card} by {who}")


def _steps(rules: RuleSet, seed: int) -> list[str]:
    rng = random.Random(seed)
    rnd = deal(rules=rules, seed=seed)
    out = [repr(rnd.dealt)]
    rnd = _decide_exposures(rnd, rng, out)
    out.append(f"exposed {rnd.exposed} face down {rnd.face_down}")
    guard = 0
    while not rnd.is_over and guard < 500:
        guard += 1
        if rnd.phase is Phase.CLAIM:
            rnd = _respond(rnd, rng, out)
            continue
        if rnd.phase is Phase.EXPOSURE and _undecided(rnd):
            rnd = _decide_exposures(rnd, rng, out)
            if rnd.phase is Phase.EXPOSURE and _undecided(rnd):
                break
            continue
        legal = rnd.legal_plays
        out.append(f"{rnd.phase.name} {rnd.to_act} legal {legal}")
        roll = rng.random()
        if roll < 0.04 and rules.claims:
            try:
                rnd = rnd.claim(seat=rnd.to_act)
                out.append(f"claim {rnd.claim_pending}")
            except IllegalActionError as exc:
                out.append(f"refused claim: {exc.reason.name}")
            continue
        if roll < 0.12:
            _try_illegal(rnd, rng, out)
        if roll > 0.97:
            out.append(repr(rnd.view(rng.randrange(rnd.players))))
        rnd = rnd.play(rng.choice(legal), seat=rnd.to_act)
    out.append(f"complete {rnd.is_over} phase {rnd.phase.name}")
    out.append(repr(rnd.history))
    if rnd.is_over:
        out.append(repr(rnd.score()))
    return out


def _rollout(rules: RuleSet, seed: int) -> list[str]:
    rng = random.Random(seed)
    start = deal(rules=rules, seed=seed)
    out = []
    end = start.rollout(seed=seed)
    out += [repr(end.history), repr(end.score())]
    mid = _decide_exposures(start, rng, out)
    for _ in range(rng.randrange(0, 20)):
        if mid.is_over or mid.phase not in (Phase.PLAY, Phase.EXPOSURE):
            break
        mid = mid.play(rng.choice(mid.legal_plays))
    end = mid.rollout(seed=seed + 1)
    out += [repr(end.history), repr(end.score())]
    return out


def trace(case: Case) -> list[str]:
    """What happened in one case, as lines of text (identical in every build, or a bug)."""
    rules = RuleSet.from_dict(case["rules"])
    run = _steps if case["kind"] == "steps" else _rollout
    try:
        return run(rules, case["seed"])
    except Exception as exc:  # a crash is a result too: both builds must crash alike
        return [f"raised {type(exc).__name__}: {exc}"]


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def report(cases: list[Case], full: bool) -> dict[str, Any]:
    traces = [trace(c) for c in cases]
    return {
        "compiled": gongzhu.compiled,
        "file": gongzhu.__file__,
        "reports": traces if full else [digest(t) for t in traces],
    }


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        request = json.load(f)
    json.dump(report(request["cases"], request["full"]), sys.stdout)
