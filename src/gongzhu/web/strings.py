# ruff: noqa: E501  (the page's sentences are kept whole, one per line)
"""The web page's words: every string the browser shows, keyed, in English; translated in gettext.

One translation system for the server and the browser: these strings sit in
the same ``gongzhu`` gettext catalogues as the library's messages
(``src/gongzhu/i18n/locale/<lang>/LC_MESSAGES/gongzhu.po``), each under its
key as the message context (``msgctxt``), so ``tools/i18n.sh`` extracts them
with everything else and the catalogue tests check them. The server turns
one language's catalogue into the flat JSON the page loads
(:func:`catalogue`); the browser loads only its page's language.

>>> catalogue("zh")["hand.play"], catalogue("en")["hand.play"]
('出牌', 'Play')
"""

from __future__ import annotations

from functools import cache
from typing import Final

from gongzhu.i18n import translator

__all__ = ["STRINGS", "catalogue"]


def P_(key: str, text: str) -> tuple[str, str]:
    """Mark ``text`` for extraction under the context ``key``."""
    return key, text


STRINGS: Final[dict[str, str]] = dict(
    [
        P_("card.form", "{rank}{suit}"),
        P_("card.named", "{card} ({name})"),
        P_(
            "confirm.autoplay",
            "The computer will play the rest of this deal for you. This cannot be undone.",
        ),
        P_("confirm.cancel", "Cancel"),
        P_(
            "confirm.leave",
            "Leave this table? The game is kept, and a computer takes your seat after a minute.",
        ),
        P_("confirm.ok", "Yes"),
        P_(
            "confirm.return",
            "Give {who}'s seat to the computer now? {who} can no longer come back to it.",
        ),
        P_("conn.online", "connected"),
        P_("conn.reconnecting", "reconnecting…"),
        P_("dealing.label", "Dealing the cards… (click to skip the animation)"),
        P_("dir.0", "South"),
        P_("dir.1", "West"),
        P_("dir.2", "North"),
        P_("dir.3", "East"),
        P_("error.bad-message", "The server did not understand the page."),
        P_("error.bad-token", "Your seat was given to the computer: you are watching now."),
        P_("error.create", "Could not start a game: {detail}"),
        P_("error.no-room", "There is no game at this address (it may have ended long ago)."),
        P_(
            "error.not-alone",
            "Only a player alone at the table may let the computer play the deal.",
        ),
        P_("error.offline", "Not connected: reconnecting…"),
        P_("error.rate-limited", "Slow down a little."),
        P_("error.seat-taken", "That seat has just been taken."),
        P_("error.stale", "Too late: the table had moved on. Here is the table now."),
        P_("error.too-large", "Message too large."),
        P_("exposure.card", "{card}: {before} → {after}"),
        P_("exposure.confirm", "Expose {n} and play"),
        P_("exposure.decline", "Don't expose, play"),
        P_("exposure.face_down", "Face down (hidden until played)"),
        P_("exposure.hearts", "{card}: hearts {before} → {after}"),
        P_(
            "exposure.help",
            "An exposed card counts double for the whole deal and stays on your plate.",
        ),
        P_("exposure.pick", "Tick the cards you want to expose."),
        P_("exposure.pig", "Pig {before} → {after}"),
        P_("exposure.sheep", "Sheep {before} → {after}"),
        P_("exposure.title", "Expose cards?"),
        P_("exposure.transformer", "Transformer {before} → {after}"),
        P_("hand.autoplay", "Let the computer play my hand"),
        P_("hand.hint", "Hint"),
        P_("hand.hint_wait", "The computer is thinking about your cards…"),
        P_("hand.label", "Your hand"),
        P_("hand.not_playable", "not playable now"),
        P_("hand.play", "Play"),
        P_("history.deal", "Deal"),
        P_("history.empty", "No deal finished yet."),
        P_("history.exposed", "exposed: {cards}"),
        P_("history.open", "History"),
        P_("history.title", "Score history"),
        P_("home", "Gong Zhu: start screen"),
        P_("join.full", "Every seat is taken: you can watch."),
        P_(
            "join.help",
            "Take a free seat to play, or just watch: watchers see only what every player sees.",
        ),
        P_("join.sit", "Take a seat"),
        P_("join.title", "Join this table"),
        P_("join.watch", "Just watch"),
        P_("language", "Language"),
        P_("level.easy", "Easy"),
        P_("level.hard", "Hard"),
        P_("level.normal", "Normal"),
        P_("name.pig", "pig"),
        P_("name.sheep", "sheep"),
        P_("name.transformer", "transformer"),
        P_("over.close", "Look at the table"),
        P_("over.first", "First place: {who}"),
        P_("over.new_settings", "New game, other settings"),
        P_("over.pig", "The pig: {who}"),
        P_("over.pig_mark", "the pig"),
        P_("over.ranking", "Final ranking"),
        P_("over.show", "Final ranking"),
        P_("over.title", "Game over"),
        P_("phase.claim", "claim"),
        P_("phase.complete", "deal over"),
        P_("phase.exposure", "exposure"),
        P_("phase.play", "play"),
        P_("plate.cards_left", "{n} cards in hand"),
        P_("plate.exposed", "exposed"),
        P_("plate.taken", "taken"),
        P_("plate.total", "Game total"),
        P_("reason.spectator", "You are watching: take a free seat to play."),
        P_("room.copied", "Link copied."),
        P_("room.copy", "Copy"),
        P_("room.invite", "Invite friends:"),
        P_("rules.all_hearts", "all 13 hearts"),
        P_("rules.all_hearts_value", "all hearts count {n}"),
        P_("rules.close", "Close"),
        P_("rules.deal", "deal {n} of {max}"),
        P_("rules.doubles", "the deal ×2"),
        P_(
            "rules.example",
            "You took 5♥, 6♥, J♥ and the sheep: hearts −40, sheep +100, the deal +60. West took the pig with K♥, A♥ and 2♥: hearts −90, pig −100, the deal −190. North took only 10♣ and 3♥: the transformer alone, +50. Had North's 10♣ come with 7♥, the deal would be −10 × 2 = −20.",
        ),
        P_("rules.example_title", "A worked example"),
        P_("rules.exposable", "may be exposed: {cards}"),
        P_("rules.exposure_off", "no cards shown before play"),
        P_("rules.exposure_on", "exposure on"),
        P_("rules.fixed_deals", "{n} deals"),
        P_("rules.hearts_low", "2♥ 3♥ 4♥"),
        P_("rules.hearts_mid", "5♥ to 10♥, each"),
        P_("rules.in_force", "The rules at this table"),
        P_("rules.level", "computers: {level}"),
        P_("rules.max_deals", "at most {n} deals"),
        P_("rules.open", "Rules"),
        P_(
            "rules.p1",
            "Four players, each for himself, 13 cards each from one 52-card pack. The 2♣ holder leads it to the first trick of the first deal; later the player who took the pig leads. Follow suit if you can, otherwise play any card. The highest card of the suit led takes the trick; there are no trumps.",
        ),
        P_(
            "rules.p2",
            "Only some cards count. Avoid the pig (Q♠) and the hearts, take the sheep (J♦). The transformer (10♣) is worth +50 taken alone, but with any other point card it doubles your whole deal.",
        ),
        P_(
            "rules.p3",
            "Exposure: right after the deal you may show Q♠, J♦, 10♣ or A♥ to double its value (exposed pig −200, exposed sheep +200, exposed transformer ×4, exposed A♥ doubles every heart). An exposed card may not go on the first trick of its suit while you hold other cards of that suit.",
        ),
        P_(
            "rules.p4",
            "All hearts: whoever takes all thirteen hearts scores them as +200 instead. A grand slam (all hearts, the pig, the sheep and the transformer) turns every point positive. The game ends when someone reaches the end score; the highest total comes first, the lowest is the pig.",
        ),
        P_("rules.scoring", "The point cards"),
        P_("rules.swap_off", "pig/sheep flip off"),
        P_("rules.swap_on", "pig/sheep flip on"),
        P_("rules.threshold", "game to ±{n}"),
        P_("rules.title", "How to play Gong Zhu"),
        P_("rules.transformer_alone", "10♣ alone"),
        P_("rules.transformer_with", "10♣ with other point cards"),
        P_("seat.away", "away"),
        P_("seat.away_for", "away · computer in {s} s"),
        P_("seat.computer", "computer"),
        P_("seat.human", "player"),
        P_("seat.name_prompt", "Your name"),
        P_("seat.return", "Give to the computer"),
        P_("seat.sit", "Take this seat"),
        P_("seat.thinking", "thinking…"),
        P_("seat.you", "You"),
        P_("sheet.again", "New game, same settings"),
        P_("sheet.all_hearts", "all hearts"),
        P_("sheet.alone", "alone"),
        P_("sheet.cards", "Cards taken"),
        P_("sheet.grand_slam", "grand slam"),
        P_("sheet.line1", "① hearts"),
        P_("sheet.line2", "② pig"),
        P_("sheet.line3", "③ sheep"),
        P_("sheet.line4", "④ base"),
        P_("sheet.line5", "⑤ transformer"),
        P_("sheet.line6", "⑥ deal"),
        P_("sheet.line7", "⑦ total"),
        P_("sheet.next", "Next deal"),
        P_("sheet.no_marks", "No all-hearts and no transformer doubling this deal."),
        P_("sheet.note_all_hearts", "all hearts: {who}"),
        P_("sheet.note_doubled", "transformer ×{m}: {who}"),
        P_("sheet.note_slam", "grand slam: {who}"),
        P_("sheet.record", "Download the game record"),
        P_("sheet.standings", "Standings"),
        P_("sheet.title", "Deal {n}: the score"),
        P_("start.all_hearts", "All hearts count"),
        P_("start.deal", "Deal the cards"),
        P_("start.deals8", "Fixed: 8 deals"),
        P_("start.default_name", "Player"),
        P_("start.exposable", "Cards that may be exposed"),
        P_("start.exposable_all", "all four: Q♠ J♦ 10♣ A♥"),
        P_("start.exposable_two", "only the pig and the transformer"),
        P_("start.exposure", "Exposure: Q♠, J♦, 10♣ and A♥ may be shown to double them"),
        P_("start.heading", "New game"),
        P_(
            "start.lead",
            "You against three computers, each for himself. Take the sheep, leave the pig.",
        ),
        P_("start.level", "Computers' level"),
        P_("start.more", "More rules (common variants)"),
        P_("start.name", "Your name"),
        P_("start.normal", "Normal ±1000"),
        P_("start.quick", "Quick ±500"),
        P_("start.saved", "Continue a saved game"),
        P_("start.saved_game", "Game {id} ({date})"),
        P_("start.seed", "Game number (optional: the same number deals the same cards)"),
        P_(
            "start.sign_swap",
            "Pig/sheep flip: when someone takes all the hearts, the pig counts +100 and the sheep −100",
        ),
        P_("start.threshold", "End of the game"),
        P_("status.deal_over", "The deal is over"),
        P_("status.exposure", "Decide on exposure"),
        P_("status.exposure_wait", "Waiting for the others to decide on exposure"),
        P_("status.loading", "Loading the table…"),
        P_("status.spectator", "watching"),
        P_("status.trick", "trick {n}/13"),
        P_("status.waiting", "{who} to play"),
        P_("status.your_lead", "Your lead"),
        P_("status.your_turn", "Your turn"),
        P_("suit.C", "clubs"),
        P_("suit.D", "diamonds"),
        P_("suit.H", "hearts"),
        P_("suit.S", "spades"),
        P_("table.number", "game no. {n}"),
        P_("table.number_hidden", "game number shown at the end"),
        P_("title", "Gong Zhu"),
        P_("trick.last", "last trick: {who}"),
        P_("trick.show_last", "Last trick"),
        P_("trick.takes", "Trick to {who}"),
        P_("lobby.wait", "Wait for friends: deal when everyone is seated"),
        P_("lobby.title", "Waiting for friends"),
        P_(
            "lobby.help_host",
            "Send your friends the invite link below. Each types a name and takes a seat; the empty seats are played by the computer. Deal when everyone is here.",
        ),
        P_("lobby.help_guest", "{who} deals when everyone is seated."),
        P_("lobby.start", "Everyone is here: deal"),
        P_("lobby.computer", "computer ({dir})"),
        P_("lobby.host", "host"),
        P_("watchers.count", "{n} watching"),
        P_("watchers.names", "Watching: {names}"),
        P_("watchers.none", "Nobody is watching"),
        P_("watchers.anonymous", "a watcher"),
        P_(
            "join.running",
            "This game is under way (deal {deal}): sitting now, you take over {who}'s cards in this deal and its total so far ({total}).",
        ),
        P_("over.rematch", "Rematch: same players, same seats"),
        P_(
            "rules.exposure_intro",
            "Exposure: right after the deal you may show {cards}; a shown card counts double for the whole deal.",
        ),
        P_("rules.exposed_pig", "A shown pig counts double against whoever takes it."),
        P_("rules.exposed_sheep", "A shown sheep counts double for whoever takes it."),
        P_(
            "rules.exposed_transformer",
            "A shown transformer multiplies its taker's deal by 4 instead of 2.",
        ),
        P_(
            "rules.exposed_ace",
            "A shown A♥ doubles every heart (all thirteen hearts then count {n}).",
        ),
        P_(
            "rules.exposure_restriction",
            "A shown card may not go on the first trick of its suit while you hold other cards of that suit.",
        ),
        P_(
            "rules.all_hearts_text",
            "All hearts: whoever takes all thirteen hearts scores them as {n} instead.",
        ),
        P_(
            "rules.flip_on",
            "Pig/sheep flip: in a deal where one player takes all the hearts, the pig counts {pig} and the sheep {sheep}, whoever takes them.",
        ),
        P_(
            "rules.flip_off",
            "The pig and the sheep keep their signs when someone takes all the hearts (all hearts with the pig: {n}).",
        ),
        P_(
            "rules.slam",
            "Grand slam: all the hearts, the pig, the sheep and the transformer in one player's tricks score {n} (every card counts positive and the transformer doubles them).",
        ),
        P_(
            "rules.slam_exposed",
            "Grand slam: all the hearts, the pig, the sheep and the transformer in one player's tricks score {n} (every card counts positive and the transformer doubles them), {exposed} with the sheep shown.",
        ),
        P_(
            "rules.doubled",
            "{card} taken with other point cards doubles its taker's deal: {card} with 5♥ is {n}.",
        ),
        P_(
            "rules.end_threshold",
            "The game ends when someone reaches +{n} or −{n}; the highest total comes first, the lowest is the pig.",
        ),
        P_(
            "rules.end_deals",
            "The game lasts {n} deals; the highest total comes first, the lowest is the pig.",
        ),
        P_("sheet.exposed_by", "{card} exposed by {who}"),
        P_("dealing.status", "Dealing…"),
        P_("stats.title", "Your statistics (this browser)"),
        P_("stats.empty", "No finished game yet."),
        P_("stats.games", "Games played"),
        P_("stats.won", "Games won"),
        P_("stats.pig", "Times the pig (last at the end)"),
        P_("stats.pig_taken", "Deals you took the pig (Q♠)"),
        P_("stats.deals", "Deals played"),
        P_("stats.average", "Average per deal"),
        P_("stats.level", "Against {level} computers"),
        P_("stats.level_value", "{won} won of {games}"),
        P_("saved.deal", "deal {n}"),
        P_("saved.total", "your total {total}"),
        P_("saved.friends", "with friends"),
        P_("saved.delete", "Delete"),
        P_("saved.delete_label", "Delete the game of {date}"),
        P_("feel.sound_on", "Sound on"),
        P_("feel.sound_off", "Sound off"),
        P_("feel.speed", "Speed"),
        P_("feel.slow", "Slow"),
        P_("feel.normal", "Normal"),
        P_("feel.fast", "Fast"),
    ]
)
"""Key → the English text (the page's fallback for any key a catalogue lacks)."""


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every page string in ``lang`` (English where a translation is missing)."""
    t = translator(lang)
    return {key: t.pgettext(key, text) for key, text in STRINGS.items()}
