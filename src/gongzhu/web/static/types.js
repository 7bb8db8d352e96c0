// @ts-check
// The messages of docs/web_protocol.rst as JSDoc types, taken from the JSON schemas
// (src/gongzhu/protocol/schemas/web-server.json, web-client.json). Types only: no code.

/**
 * @typedef {string} CardCode  A card as two characters: rank 2-9 T J Q K A, suit C D H S ("QS").
 *
 * @typedef {object} Seat      One seat of `room.seats` (web-server.json #/$defs/room).
 * @property {string} name
 * @property {"human"|"computer"} kind
 * @property {boolean} connected
 * @property {boolean} autoplay
 * @property {number|null} [takeover_in]  Seconds before a computer takes over an away seat.
 *
 * @typedef {object} HistoryRow  One finished deal of this game (room.history).
 * @property {number} deal
 * @property {number[]} scores   The deal's score of each seat.
 * @property {number[]} totals   The running totals after it.
 * @property {CardCode[][]} exposed  The cards each seat exposed.
 *
 * @typedef {object} Rules     RuleSet.to_dict (#/$defs/rules), the fields the page reads.
 * @property {string} direction
 * @property {string|null} opening_card
 * @property {number[]} heart_values
 * @property {number} pig_value
 * @property {number} sheep_value
 * @property {number} transformer_bonus
 * @property {number} all_hearts_value
 * @property {boolean} sign_swap
 * @property {string} exposable
 * @property {string} exposure_kind
 * @property {number|null} win_threshold
 * @property {number|null} loss_threshold
 * @property {number|null} max_deals
 *
 * @typedef {object} Room      The public room (#/$defs/room; a state's room_state has no rules).
 * @property {string} id
 * @property {Rules} [rules]    In the welcome only (once per connection).
 * @property {number|null} threshold
 * @property {boolean} sign_swap
 * @property {boolean} exposure
 * @property {"easy"|"normal"|"hard"} level
 * @property {Seat[]} seats
 * @property {number[]} totals
 * @property {number} deals_played
 * @property {number|null} max_deals
 * @property {number} game_no
 * @property {string} invite
 * @property {string|null} [seed]       The game's number as text, when everyone may know it.
 * @property {Record<string, number>} [rule_numbers] Deal scores the rules prose quotes (welcome).
 * @property {boolean} [lobby]     The table waits for friends: the host starts the deal.
 * @property {boolean} [open]      An open table: listed (GET /api/tables) while it waits.
 * @property {number} [watchers]    How many watch.
 * @property {number[]} [undos]     Per deal of this game (deal 1 first): the cards taken back.
 * @property {string[]} [watcher_names] The names they gave ("" for none).
 * @property {boolean} [seeded]    A player chose the number (it is shown to everyone).
 * @property {number} [host]            The seat that opened the room (absent: seat 0).
 * @property {HistoryRow[]} [history]
 *
 * @typedef {object} Trick
 * @property {CardCode[]} cards
 * @property {number[]} seats
 * @property {number} [winner]
 *
 * @typedef {object} View      PlayerView.to_dict (#/$defs/view); seat null for a watcher.
 * @property {number|null} seat
 * @property {"exposure"|"play"|"claim"|"complete"} phase
 * @property {CardCode[]} hand
 * @property {number|null} to_act
 * @property {CardCode[][]} exposures
 * @property {CardCode[]} own_face_down
 * @property {number[]} face_down_counts
 * @property {Trick|null} current_trick
 * @property {Trick[]} tricks
 * @property {CardCode[][]} captured_points
 * @property {number[]} hand_sizes
 * @property {CardCode[]} legal_plays
 * @property {number} trick_number
 * @property {(number[]|null)} running_totals
 *
 * @typedef {object} ExposureOption
 * @property {CardCode} card
 * @property {string} line
 * @property {number} before
 * @property {number} after
 *
 * @typedef {object} PlayerScore
 * @property {number} seat
 * @property {CardCode[]} cards
 * @property {number} hearts
 * @property {number} pig
 * @property {number} sheep
 * @property {number} base
 * @property {number} multiplier
 * @property {number} bonus
 * @property {number} total
 * @property {"NONE"|"LONE_BONUS"|"MULTIPLIER"} transformer
 * @property {boolean} all_hearts
 * @property {boolean} grand_slam
 *
 * @typedef {object} DealScore
 * @property {PlayerScore[]} players
 * @property {number[]} totals
 * @property {Object<string, number>} exposed
 *
 * @typedef {object} GameOver
 * @property {number[]} winners
 * @property {number[]} losers
 * @property {string} end_reason
 *
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {number} event
 * @property {Room} room
 * @property {View} view
 * @property {number} deal_no
 * @property {ExposureOption[]} exposure_options
 * @property {DealScore|null} last_score
 * @property {GameOver|null} game_over
 * @property {string|null} [deal_code]  The finished deal's code (review.js), else null.
 * @property {string|null} [daily]  The day whose deal this room plays, else null.
 * @property {boolean} [shared]  The room plays a shared deal (a deal code, the deal of the day).
 *
 * @typedef {object} WelcomeMessage
 * @property {"welcome"} type
 * @property {number} event
 * @property {number|null} seat
 * @property {string|null} token
 * @property {Room} room
 *
 * @typedef {object} ErrorMessage
 * @property {"error"} type
 * @property {number} event
 * @property {string} code
 * @property {string} message
 * @property {string} reply_to
 * @property {object} detail
 *
 * @typedef {object} HintMessage
 * @property {"hint"} type
 * @property {number} event
 * @property {{card: CardCode, expected: number, stderr: number, samples: number}[]} cards
 *
 * @typedef {object} ThinkingMessage   A computer is deciding for `seat` (null: nobody now).
 * @property {"thinking"} type
 * @property {number} event
 * @property {number|null} seat
 *
 * @typedef {StateMessage|WelcomeMessage|ErrorMessage|HintMessage|ThinkingMessage} ServerMessage
 */

export {};
