#!/usr/bin/env bash
# Mutation testing of the scoring, match and round (round + _core/play) modules
# (docs/how_we_test.rst).
#
#   tools/mutation.sh [--worktree] [scoring|match|round|all] [extra tools/mutate.py options]
#
# Runs on a private copy of the repository (default: the committed HEAD; with
# --worktree: the working tree as it is, uncommitted edits included), so the
# checkout is never touched. Results: $MUT_OUT/<name>.json (default
# /tmp/gongzhu-mutation-out; the round target writes round.json and play.json).
# Slow (minutes to an hour): not part of .ci/run.
# Needs the `mutation` extra (coverage): pip install -e '.[mutation]'.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python}"
COPY="${MUT_COPY:-/tmp/gongzhu-mutation-tree}"
OUT="${MUT_OUT:-/tmp/gongzhu-mutation-out}"
export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-ci}"

SOURCE=HEAD
if [ "${1:-}" = "--worktree" ]; then SOURCE=worktree; shift; fi
WHICH="${1:-all}"
shift || true

rm -rf "$COPY"
mkdir -p "$COPY" "$OUT"
if [ "$SOURCE" = HEAD ]; then
    git -C "$ROOT" archive HEAD | tar -x -C "$COPY"
else
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) \
        | (cd "$ROOT" && xargs -0 cp --parents -t "$COPY" 2>/dev/null || true)
fi
echo "mutating a copy of $SOURCE at $COPY ($(git -C "$ROOT" rev-parse --short HEAD))"

ROUND_FUNCTIONS="${ROUND_FUNCTIONS:-legal_mask,binding_exposed,force_fourth,legal,play_reason,advance,expose_reason,expose,decline_all,claim_reason,claim,respond_reason,respond,Round.play,Round.legal_plays,Round.expose,Round.claim,Round.respond,Round.score}"

run() {
    local name="$1" module="$2"
    shift 2
    "$PYTHON" "$ROOT/tools/mutate.py" --root "$COPY" "$module" --out "$OUT/$name.json" "$@"
}

if [ "$WHICH" = scoring ] || [ "$WHICH" = all ]; then
    # The one scoring kernel (every score of the package is computed there).
    run scoring src/gongzhu/_core/scoring.py "$@" --tests \
        src/gongzhu/scoring/_score.py tests/scoring/test_scoring_examples.py tests/scoring/test_scoring_laws.py \
        tests/scoring/test_reference_scorer.py tests/scoring/test_scoring_fuzz.py tests/scoring/test_scoring_mutants.py
fi
if [ "$WHICH" = match ] || [ "$WHICH" = all ]; then
    run match src/gongzhu/match/_match.py "$@" --tests \
        src/gongzhu/match/_match.py tests/match/test_match.py tests/match/test_match_fuzz.py tests/match/test_match_mutants.py
fi
ROUND_TESTS=(src/gongzhu/round/_round.py tests/round/test_round.py tests/round/test_round_laws.py tests/round/test_views.py
    tests/round/test_golden_playthroughs.py tests/round/test_round_mutants.py)
if [ "$WHICH" = round ] || [ "$WHICH" = all ]; then
    # The engine's suite is slow: mutate the functions of the rules of play (the hot
    # path) and run Hypothesis with a small derandomized profile; say so in the report.
    # Those functions live in two modules since the split: the Round methods in
    # round/_round.py, the rules on ints in _core/play.py. One list names both; each run mutates
    # the functions its module has, against the same tests.
    run round src/gongzhu/round/_round.py --max-examples 10 \
        --functions "$ROUND_FUNCTIONS" "$@" --tests "${ROUND_TESTS[@]}"
    run play src/gongzhu/_core/play.py --max-examples 10 \
        --functions "$ROUND_FUNCTIONS" "$@" --tests "${ROUND_TESTS[@]}"
fi
