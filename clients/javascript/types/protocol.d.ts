/* Generated from docs/schema/protocol.json by json-schema-to-typescript (clients/javascript/scripts/generate-types.mjs).
 * Do not edit: change the server's models, regenerate the schema (python -m freecell_arena.protocol.generate),
 * then this file (npm run generate in clients/javascript). */

export type ClientToServer =
  | HelloRequest
  | CreateRoomRequest
  | JoinRoomRequest
  | LeaveRoomRequest
  | StartRaceRequest
  | MoveRequest
  | UndoRequest
  | ResignRequest
  | StateRequest
  | ReplayRequest
  | LeaderboardRequest
  | SeasonRequest
  | HistoryRequest
  | DailyRequest
  | PlayDailyRequest
  | RaceAgainRequest
  | QuickRaceRequest
  | PasskeyBeginRequest
  | PasskeyFinishRequest
  | AccountRequest
  | RenamePasskeyRequest
  | RemovePasskeyRequest
  | RevokeTokenRequest
  | SignOutRequest
  | CreateBotRequest
  | NewBotTokenRequest
  | RatingsRequest
  | PlayerRequest
  | StreakRequest
  | ReviewRequest
  | ShareRequest
  | TournamentsRequest
  | TournamentRequest
  | CreateTournamentRequest
  | EnterTournamentRequest
  | WithdrawTournamentRequest
  | PauseTournamentRequest
  | BerserkRequest
  | ReportRequest
  | MyReportsRequest
  | ChooseNameRequest
  | ModQueueRequest
  | ModEvidenceRequest
  | ModActionRequest
  | ModLogRequest
  | ModSearchRequest
  | HintRequest
  | QuickRacesRequest
  | RaceBotRequest;
export type ServerToClient =
  | WelcomeMessage
  | ErrorMessage
  | RoomMessage
  | LeftRoomMessage
  | MemberJoinedMessage
  | MemberLeftMessage
  | MemberConnectionMessage
  | CountdownMessage
  | RaceStartedMessage
  | MoveAcceptedMessage
  | GameOverMessage
  | ProgressMessage
  | RaceOverMessage
  | GameStateMessage
  | ReplayMessage
  | LeaderboardMessage
  | SeasonMessage
  | HistoryMessage
  | DailyMessage
  | DailyStartedMessage
  | SeriesInviteMessage
  | PasskeyOptionsMessage
  | SignedInMessage
  | AccountMessage
  | BotTokenMessage
  | SignedOutMessage
  | RaceRatingsMessage
  | RatingsMessage
  | StreakMessage
  | PlayerMessage
  | ReviewMessage
  | ShareMessage
  | TournamentListMessage
  | TournamentMessage
  | TournamentEntryMessage
  | TournamentRaceMessage
  | ReportReceivedMessage
  | MyReportsMessage
  | NameReplacedMessage
  | NameChosenMessage
  | ModQueueMessage
  | ModEvidenceMessage
  | ModLogMessage
  | ModActionMessage
  | ModLoggedMessage
  | ModSearchMessage
  | HintMessage
  | QuickRacesMessage
  | RaceBotMessage;
/**
 * Stable error codes. Programs switch on these; the message beside them is for people.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ErrorCode".
 */
export type ErrorCode =
  | "invalid_json"
  | "invalid_message"
  | "unknown_type"
  | "message_too_large"
  | "rate_limited"
  | "hello_required"
  | "already_greeted"
  | "unknown_token"
  | "unknown_variant"
  | "bad_seed"
  | "unknown_room"
  | "room_full"
  | "room_started"
  | "already_in_room"
  | "not_in_room"
  | "not_host"
  | "not_enough_players"
  | "no_game"
  | "not_your_game"
  | "game_not_running"
  | "bad_notation"
  | "illegal_move"
  | "undo_not_allowed"
  | "unknown_game"
  | "replay_not_available"
  | "storage_failed"
  | "internal_error"
  | "shutting_down"
  | "unranked_options"
  | "bad_cursor"
  | "unknown_player"
  | "not_on_board"
  | "unknown_daily"
  | "unknown_seed"
  | "daily_not_ready"
  | "game_in_progress"
  | "not_found"
  | "method_not_allowed"
  | "not_ready"
  | "race_not_over"
  | "passkey_refused"
  | "revoked_token"
  | "name_taken"
  | "not_saved"
  | "not_yours"
  | "last_passkey"
  | "unknown_tournament"
  | "already_entered"
  | "not_entered"
  | "tournament_full"
  | "entry_closed"
  | "bots_only"
  | "humans_only"
  | "tournament_over"
  | "berserk_refused"
  | "not_allowed"
  | "banned"
  | "already_reported"
  | "no_hints";

/**
 * FreeCell Arena websocket protocol version 4. Requests as the server reads them; server frames as it writes them (every field always present).
 */
export interface Protocol {
  client_to_server?: ClientToServer;
  server_to_client?: ServerToClient;
}
/**
 * First message of every connection. With `token`, resume that identity (and its running game).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "HelloRequest".
 */
export interface HelloRequest {
  bot?: boolean;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * 1-32 characters once trimmed and NFC-normalized; no control or invisible characters.
   */
  name: string;
  token?: string | null;
  type?: "hello";
}
/**
 * Create a room and become its host. No `seed`/`deal`: a fresh random seed. `deal` is a deal number.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "CreateRoomRequest".
 */
export interface CreateRoomRequest {
  deal?: (string | number) | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  options?: RoomOptions;
  seed?: (string | number) | null;
  type?: "create_room";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * What the host chose for the room. `undo_allowed` null = the variant's default.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RoomOptions-Input".
 */
export interface RoomOptions {
  /**
   * Safe cards go to the foundations on their own.
   */
  autoplay?: boolean;
  countdown_s?: number;
  max_players?: number;
  /**
   * Winners go on the deal's leaderboard. Null: ranked when autoplay is on and undo is the variant's rule (the room then shows true or false); true with other options is refused.
   */
  ranked?: boolean | null;
  /**
   * Winners ordered by moves then time, or (speed) by time then moves.
   */
  ranking?: "moves" | "speed";
  /**
   * Race ends after this long.
   */
  time_limit_s?: number | null;
  undo_allowed?: boolean | null;
}
/**
 * Join a room by its code, as a player (lobby only) or as a spectator (any time).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "JoinRoomRequest".
 */
export interface JoinRoomRequest {
  code: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  spectator?: boolean;
  type?: "join_room";
}
/**
 * Leave the room; leaving during a race resigns the game.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "LeaveRoomRequest".
 */
export interface LeaveRoomRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "leave_room";
}
/**
 * Host only: start the countdown; every player gets the same deal at the same instant.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "StartRaceRequest".
 */
export interface StartRaceRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "start_race";
}
/**
 * A move in the variant's text notation (`"3a"`, `"t3-c1"`) or the structured form.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MoveRequest".
 */
export interface MoveRequest {
  game_id?: string | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  move: string | MoveJson;
  type?: "move";
}
/**
 * The structured form of a move. Indices are 0-based; `to_index` null = the first cell/foundation that fits
 * (required for a column). A malformed one is refused as `bad_notation`, like unreadable text.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MoveJson".
 */
export interface MoveJson {
  count?: number;
  from: "tableau" | "cell";
  from_index: number;
  to: "tableau" | "cell" | "foundation";
  to_index?: number | null;
}
/**
 * Take back your last move and the autoplay after it (costs a move; room option).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "UndoRequest".
 */
export interface UndoRequest {
  game_id?: string | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "undo";
}
/**
 * Give up your game; it ranks by cards on foundations.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ResignRequest".
 */
export interface ResignRequest {
  game_id?: string | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "resign";
}
/**
 * Ask again for the full state: your room and your current game.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "StateRequest".
 */
export interface StateRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "get_state";
}
/**
 * A game's seed and move list: anyone's once its race is over, your own any time (not in Cell Eleven, a daily
 * before its day closes or a cup's heat before the cup is over: their seeds are secret until then).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ReplayRequest".
 */
export interface ReplayRequest {
  game_id: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "get_replay";
}
/**
 * A board: the top `limit` entries, the next page with `cursor`, or the entries `around` a player.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "LeaderboardRequest".
 */
export interface LeaderboardRequest {
  /**
   * A player id: that player's row with the rows just above and below it (`limit` in all).
   */
  around?: string | null;
  board: "daily" | "deal";
  /**
   * The bots' board; bots never appear on the humans' one.
   */
  bots?: boolean;
  /**
   * `next_cursor` of the previous page, unchanged.
   */
  cursor?: string | null;
  /**
   * daily: the UTC day (default: today).
   */
  day?: string | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * Rows per page (1..100).
   */
  limit?: number;
  /**
   * deal: the seed (the deal number in freecell).
   */
  seed?: (string | number) | null;
  type?: "get_leaderboard";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * The season table of a variant's dailies over the last 7 or 30 closed days.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SeasonRequest".
 */
export interface SeasonRequest {
  /**
   * A player id: that player's row with the rows just above and below it (`limit` in all).
   */
  around?: string | null;
  bots?: boolean;
  /**
   * `next_cursor` of the previous page, unchanged.
   */
  cursor?: string | null;
  /**
   * 7 or 30.
   */
  days?: 7 | 30;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * Rows per page (1..100).
   */
  limit?: number;
  type?: "get_season";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * A player's finished games, newest first (default: yours).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "HistoryRequest".
 */
export interface HistoryRequest {
  /**
   * `next_cursor` of the previous page, unchanged.
   */
  cursor?: string | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * Rows per page (1..100).
   */
  limit?: number;
  player_id?: string | null;
  type?: "get_history";
}
/**
 * A variant's daily deals: the commitments, and the seeds of closed days (commit-reveal).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "DailyRequest".
 */
export interface DailyRequest {
  /**
   * One day; default: tomorrow (if prepared), today, yesterday.
   */
  day?: string | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "get_daily";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * Play today's daily deal: your first game of it is ranked, later ones are not. The clock starts now.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PlayDailyRequest".
 */
export interface PlayDailyRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "play_daily";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * After `race_over`: open the series' next room (same options, a fresh server-drawn deal) or, when a member
 * opened it already, join it. Everyone of the finished room is invited (`series_invite`).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RaceAgainRequest".
 */
export interface RaceAgainRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "race_again";
}
/**
 * Join the variant's public room that is filling (one is opened when none is); it starts by itself, ranked,
 * on a server-drawn deal.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "QuickRaceRequest".
 */
export interface QuickRaceRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "quick_race";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * Begin a passkey ceremony: `save` this player with a new passkey (after hello), or `sign_in` (before or
 * after hello) to become the player a passkey belongs to.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PasskeyBeginRequest".
 */
export interface PasskeyBeginRequest {
  ceremony: "save" | "sign_in";
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "passkey_begin";
}
/**
 * The browser's answer to `passkey_options`. `label` names the new passkey (save) or session (sign_in).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PasskeyFinishRequest".
 */
export interface PasskeyFinishRequest {
  ceremony: "save" | "sign_in";
  /**
   * What the browser's `PublicKeyCredential.toJSON()` gives (WebAuthn Level 3: RegistrationResponseJSON for save, AuthenticationResponseJSON for sign_in; binary fields base64url). Passed to the server's WebAuthn verification as it is.
   */
  credential: {
    authenticatorAttachment?: string | null;
    clientExtensionResults?: {
      [k: string]: unknown | undefined;
    };
    id: string;
    rawId: string;
    response: {
      [k: string]: unknown | undefined;
    };
    type: "public-key";
    [k: string]: unknown | undefined;
  };
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  label?: string;
  type?: "passkey_finish";
}
/**
 * Your account page: name, passkeys, sessions, bots.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "AccountRequest".
 */
export interface AccountRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "get_account";
}
/**
 * Rename one of your passkeys ("Laptop", "Phone"): how the account page lists it.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RenamePasskeyRequest".
 */
export interface RenamePasskeyRequest {
  credential_id: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  name: string;
  type?: "rename_passkey";
}
/**
 * Remove one of your passkeys (never the last: add another first).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RemovePasskeyRequest".
 */
export interface RemovePasskeyRequest {
  credential_id: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "remove_passkey";
}
/**
 * Revoke one of your sessions or one of your bots' tokens (`token_id` as the account lists it): its
 * connections close, on every server process.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RevokeTokenRequest".
 */
export interface RevokeTokenRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  token_id: string;
  type?: "revoke_token";
}
/**
 * End this browser's session, or (`everywhere`) every session of yours, this one included.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SignOutRequest".
 */
export interface SignOutRequest {
  everywhere?: boolean;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "sign_out";
}
/**
 * A bot account of yours: its name is claimed like yours; its API token comes once, in `bot_token`.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "CreateBotRequest".
 */
export interface CreateBotRequest {
  description?: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * 1-32 characters once trimmed and NFC-normalized; no control or invisible characters.
   */
  name: string;
  type?: "create_bot";
}
/**
 * Another API token for one of your bots (the others stay valid until revoked).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "NewBotTokenRequest".
 */
export interface NewBotTokenRequest {
  bot_id: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "new_bot_token";
}
/**
 * A variant's "Rating" board: the top `limit` players of one ladder and, with `around`, that player's rows.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RatingsRequest".
 */
export interface RatingsRequest {
  /**
   * A player id: that player's row with the rows just above and below it (`limit` in all).
   */
  around?: string | null;
  /**
   * The bots' ladder; bots are never rated among the humans.
   */
  bots?: boolean;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * Rows per page (1..100).
   */
  limit?: number;
  type?: "get_ratings";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * A player's page: per variant their games, wins, bests, rating with its history, and daily streaks.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PlayerRequest".
 */
export interface PlayerRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * Default: you.
   */
  player_id?: string | null;
  type?: "get_player";
}
/**
 * A player's daily streak in one variant, and a month's calendar (won / played / missed).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "StreakRequest".
 */
export interface StreakRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * YYYY-MM (default: this month).
   */
  month?: string | null;
  /**
   * Default: you.
   */
  player_id?: string | null;
  type?: "get_streak";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * A finished race (`code`) or a closed daily (`variant` and `day`) beside par: refused with `race_not_over`
 * while the race runs or the day is open (par is a full solution).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ReviewRequest".
 */
export interface ReviewRequest {
  code?: string | null;
  day?: string | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "get_review";
  variant?: ("freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck") | null;
}
/**
 * The spoiler-free text to share after a finished game (a daily attempt or a race): counts, never the deal.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ShareRequest".
 */
export interface ShareRequest {
  game_id: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * The site's origin the link starts with (default: the server's).
   */
  origin?: string | null;
  type?: "get_share";
}
/**
 * The tournaments page: upcoming (with their start), running, and recently finished ones.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TournamentsRequest".
 */
export interface TournamentsRequest {
  /**
   * Only bots-only events (true), only humans' (false), or both.
   */
  bots?: boolean | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * Only the tournaments this player entered.
   */
  player_id?: string | null;
  type?: "get_tournaments";
}
/**
 * One tournament: its rules, the table (the top, and the rows around `around`), the podium once over.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TournamentRequest".
 */
export interface TournamentRequest {
  /**
   * A player whose neighbours to include.
   */
  around?: string | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * A tournament's id (`get_tournaments` lists them).
   */
  tournament_id: string;
  type?: "get_tournament";
}
/**
 * A saved player's private tournament for friends: entered by its link (the reply's `link_code`).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "CreateTournamentRequest".
 */
export interface CreateTournamentRequest {
  berserk?: boolean;
  /**
   * Most entrants, first come first served.
   */
  cap?: number;
  /**
   * Arena: how long races are formed.
   */
  duration_min?: number;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  kind?: "arena" | "cup";
  /**
   * 1-60 characters once trimmed and NFC-normalized; no control or invisible characters.
   */
  name: string;
  /**
   * Arena: players in a race.
   */
  race_size?: number;
  /**
   * Rated races (never on a chosen deal: `seed` makes it casual).
   */
  ranked?: boolean;
  /**
   * Cup: from one round's start to the next.
   */
  round_interval_s?: number;
  /**
   * Cup: how many deals.
   */
  rounds?: number;
  /**
   * Every race on this deal (never rated).
   */
  seed?: (string | number) | null;
  /**
   * Seconds from now to the start.
   */
  starts_in_s?: number;
  /**
   * Each race's time limit.
   */
  time_limit_s?: number;
  type?: "create_tournament";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant?: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * Enter a tournament before its entry closes (an arena's late-entry cutoff, a cup's start).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "EnterTournamentRequest".
 */
export interface EnterTournamentRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * A link-entry tournament's code.
   */
  link_code?: string | null;
  /**
   * A tournament's id (`get_tournaments` lists them).
   */
  tournament_id: string;
  type?: "enter_tournament";
}
/**
 * Leave the tournament for good (your points stay in the table; you are not paired again).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "WithdrawTournamentRequest".
 */
export interface WithdrawTournamentRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * A tournament's id (`get_tournaments` lists them).
   */
  tournament_id: string;
  type?: "withdraw_tournament";
}
/**
 * Pause (not paired until you come back) or come back (`paused` false).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PauseTournamentRequest".
 */
export interface PauseTournamentRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  paused?: boolean;
  /**
   * A tournament's id (`get_tournaments` lists them).
   */
  tournament_id: string;
  type?: "pause_tournament";
}
/**
 * In an arena race's countdown: half the time limit, a bonus point if you solve it within it.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "BerserkRequest".
 */
export interface BerserkRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * A tournament's id (`get_tournaments` lists them).
   */
  tournament_id: string;
  type?: "berserk";
}
/**
 * Report a player (saved players only): `help` (playing with help, or a program playing as a person), an
 * offensive `name`, or `other`. Only moderators ever read `text`.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ReportRequest".
 */
export interface ReportRequest {
  /**
   * The game it is about, if one.
   */
  game_id?: string | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  player_id: string;
  reason: "help" | "name" | "other";
  text?: string;
  type?: "report";
}
/**
 * Your reports and what became of them (received, acted on, closed), never how.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MyReportsRequest".
 */
export interface MyReportsRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "get_my_reports";
}
/**
 * A new name, after a moderator replaced yours (`name_replaced`).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ChooseNameRequest".
 */
export interface ChooseNameRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * 1-32 characters once trimmed and NFC-normalized; no control or invisible characters.
   */
  name: string;
  type?: "choose_name";
}
/**
 * Moderators: the open reports, by player.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModQueueRequest".
 */
export interface ModQueueRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "mod_queue";
}
/**
 * Moderators: what the server computes about a player (worked out when asked; solving may take seconds).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModEvidenceRequest".
 */
export interface ModEvidenceRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  player_id: string;
  type?: "mod_evidence";
}
/**
 * Moderators: act on a player. `reason` is required (the mod log keeps it); `public_reason` is what a banned
 * player is told; `void` names a `game_id`, `lift` the mod log number of a sanction in force.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModActionRequest".
 */
export interface ModActionRequest {
  action: "mark" | "ban" | "rename" | "void" | "lift" | "dismiss";
  game_id?: string | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  lifts?: number | null;
  player_id: string;
  public_reason?: string;
  reason: string;
  type?: "mod_action";
}
/**
 * Moderators: the mod log, newest first (`before`: older than that number; `player_id`: one player's).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModLogRequest".
 */
export interface ModLogRequest {
  before?: number | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  /**
   * Rows per page (1..100).
   */
  limit?: number;
  player_id?: string | null;
  type?: "mod_log";
}
/**
 * Moderators: players by id, claimed name or the start of a name.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModSearchRequest".
 */
export interface ModSearchRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  query: string;
  type?: "mod_search";
}
/**
 * The next move of a plan for your running game, and the moves that finish it when it is decided (auto-finish).
 * Only in practice and casual play (an unranked room): refused with `no_hints` in a ranked race or a daily.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "HintRequest".
 */
export interface HintRequest {
  game_id: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "get_hint";
}
/**
 * The quick races filling now, per variant (the landing page's "who is waiting"), and the server's offer of a
 * bot to race when nobody comes.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "QuickRacesRequest".
 */
export interface QuickRacesRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "get_quick_races";
}
/**
 * In a quick race's lobby where you wait alone: the server's own bot (a client of this protocol, on the bots'
 * ladder) joins it, and the race starts by itself as with any second player.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RaceBotRequest".
 */
export interface RaceBotRequest {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id?: string | number | null;
  type?: "race_bot";
}
/**
 * Reply to hello. Keep `token`: it is the only way back to this identity (the server keeps only its hash).
 * `limits` and `quick_race` say how this server is configured.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "WelcomeMessage".
 */
export interface WelcomeMessage {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  limits: ConnectionLimits;
  name: string;
  player_id: string;
  protocol: 4;
  quick_race: QuickRaceSizes;
  resumed: boolean;
  token: string;
  type: "welcome";
}
/**
 * What one connection lives within, as this server is configured (the defaults are below): a client paces
 * itself by these rather than by guesses. Every limit a client can meet is here or in `CloseCode`.
 */
export interface ConnectionLimits {
  /**
   * Messages that may come at once, above the sustained rate.
   */
  burst: number;
  /**
   * A connection without `hello` by then is closed (1008).
   */
  hello_timeout_s: number;
  /**
   * A connection that sends no message for this long is closed (1008).
   */
  idle_timeout_s: number;
  /**
   * A frame larger than this closes the connection (close code 1009) with no error frame.
   */
  max_frame_bytes: number;
  /**
   * A larger frame (UTF-8 bytes) is dropped, answered `message_too_large`.
   */
  max_message_bytes: number;
  /**
   * The server sends a websocket ping this often (websocket libraries answer it).
   */
  ping_interval_s: number;
  /**
   * A ping not answered within this long closes the connection (1011).
   */
  ping_timeout_s: number;
  /**
   * Messages a second, sustained; past it a message is dropped, answered `rate_limited`.
   */
  rate_per_s: number;
}
/**
 * How a quick race (`quick_race`) fills and starts, as this server is configured.
 */
export interface QuickRaceSizes {
  /**
   * The countdown once `min_players` are in.
   */
  countdown_s: number;
  /**
   * A full quick race starts at once.
   */
  max_players: number;
  /**
   * Its countdown starts once this many players are in.
   */
  min_players: number;
}
/**
 * Every refusal. `reason` carries the engine's own code for `illegal_move`, and `revoked_token` for a `banned`
 * hello whose session the ban ended (a saved player signs in with their passkey again once it is lifted).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ErrorMessage".
 */
export interface ErrorMessage {
  code: ErrorCode;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  message: string;
  reason: string | null;
  type: "error";
}
/**
 * The room's full state: the reply to create/join and an event whenever membership or status changes.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RoomMessage".
 */
export interface RoomMessage {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  room: RoomView;
  type: "room";
}
/**
 * A room as everyone in it sees it. `seed` stays null for Cell Eleven until the race is over, and always for a
 * cup's heat (the cup reveals its deals once over).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RoomView".
 */
export interface RoomView {
  code: string;
  ends_at: string | null;
  /**
   * The host picked the deal (a seed or deal number): the host may know it.
   */
  host_chose_deal: boolean;
  host_id: string;
  members: RoomMember[];
  /**
   * After `race_again`: the series' next room.
   */
  next_code: string | null;
  options: RoomOptions1;
  progress: Progress[];
  /**
   * A public quick-race room: it starts by itself.
   */
  quick: boolean;
  seed: string | null;
  /**
   * The race-again series this room belongs to.
   */
  series: SeriesView | null;
  starts_at: string | null;
  status: "lobby" | "countdown" | "running" | "finished";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * A member of a room; `connected` is false while their connection is down.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RoomMember".
 */
export interface RoomMember {
  bot: boolean;
  connected: boolean;
  name: string;
  player_id: string;
  role: "player" | "spectator";
}
/**
 * What the host chose for the room. `undo_allowed` null = the variant's default.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RoomOptions-Output".
 */
export interface RoomOptions1 {
  /**
   * Safe cards go to the foundations on their own.
   */
  autoplay: boolean;
  countdown_s: number;
  max_players: number;
  /**
   * Winners go on the deal's leaderboard. Null: ranked when autoplay is on and undo is the variant's rule (the room then shows true or false); true with other options is refused.
   */
  ranked: boolean | null;
  /**
   * Winners ordered by moves then time, or (speed) by time then moves.
   */
  ranking: "moves" | "speed";
  /**
   * Race ends after this long.
   */
  time_limit_s: number | null;
  undo_allowed: boolean | null;
}
/**
 * What a room may see of one player's game: counts only, never moves or cards.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Progress".
 */
export interface Progress {
  cards_on_foundations: number;
  moves: number;
  name: string;
  player_id: string;
  status: "waiting" | "playing" | "won" | "resigned" | "stuck" | "timeout";
  /**
   * Playing time so far, or final time once done.
   */
  time_ms: number | null;
}
/**
 * A race-again series: which race of it this room is, and the wins per player of the races before it (and of
 * this one, once it is over).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SeriesView".
 */
export interface SeriesView {
  race: number;
  tally: SeriesScore[];
}
/**
 * One player's wins so far in a race-again series.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SeriesScore".
 */
export interface SeriesScore {
  name: string;
  player_id: string;
  wins: number;
}
/**
 * Reply to `leave_room`.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "LeftRoomMessage".
 */
export interface LeftRoomMessage {
  code: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  type: "left_room";
}
/**
 * To the others in the room: someone joined (the whole room goes only to the one who joined).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MemberJoinedMessage".
 */
export interface MemberJoinedMessage {
  code: string;
  member: RoomMember;
  type: "member_joined";
}
/**
 * To the others in the room: someone left; `host_id` names the host now (it moves when the host leaves).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MemberLeftMessage".
 */
export interface MemberLeftMessage {
  code: string;
  host_id: string;
  player_id: string;
  type: "member_left";
}
/**
 * To the others in the room: a member's connection went down or came back.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MemberConnectionMessage".
 */
export interface MemberConnectionMessage {
  code: string;
  connected: boolean;
  player_id: string;
  type: "member_connection";
}
/**
 * The race starts at `starts_at` (server time) for everyone.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "CountdownMessage".
 */
export interface CountdownMessage {
  code: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  seconds: number;
  starts_at: string;
  type: "countdown";
}
/**
 * Your copy of the deal. Every player's game starts at the same server instant.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RaceStartedMessage".
 */
export interface RaceStartedMessage {
  code: string;
  game: GameView;
  type: "race_started";
}
/**
 * One player's own game: the full player view (face-down cards are null).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "GameView".
 */
export interface GameView {
  /**
   * Every accepted action of this game, in notation or `undo`.
   */
  actions: string[];
  autoplay: boolean;
  cards_on_foundations: number;
  /**
   * The day, when this is a daily challenge game.
   */
  daily: string | null;
  game_id: string;
  player_moves: number;
  room_code: string | null;
  seed: string | null;
  single_card_moves: number;
  started_at: string;
  status: "waiting" | "playing" | "won" | "resigned" | "stuck" | "timeout";
  time_ms: number;
  undo_allowed: boolean;
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
  view: PlayerView;
}
/**
 * A player's whole board: what `race_started`, `daily_started` and `game_state` carry as `game.view`.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PlayerView".
 */
export interface PlayerView {
  cards_on_foundations: number;
  /**
   * The free cells, left to right; null = empty.
   *
   * Items: A card, or null: face down (Cell Eleven) or an empty cell.
   */
  cells: (string | null)[];
  foundations: FoundationView[];
  /**
   * The columns, left to right.
   */
  tableau: (string | null)[][];
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * One foundation, in the variant's slot order (suit by suit: C, D, H, S, copies side by side).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "FoundationView".
 */
export interface FoundationView {
  /**
   * Cards on it (Three Deck: up to 39, three laps of A-K).
   */
  cards: number;
  suit: "C" | "D" | "H" | "S";
  /**
   * Its top card; null while empty.
   */
  top: string | null;
}
/**
 * Sent only once the move is durable. `autoplay` lists the moves the server made after it (not counted).
 * `changes` is what the action changed in your player view; the whole view comes with `race_started`,
 * `daily_started` and `game_state` (`get_state` any time).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MoveAcceptedMessage".
 */
export interface MoveAcceptedMessage {
  /**
   * The action as stored: the move's notation, or `undo`.
   */
  action: string;
  autoplay: PlayedMove[];
  cards_on_foundations: number;
  changes: ViewChanges;
  game_id: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  /**
   * 0-based index of this action in the game's action log.
   */
  index: number;
  /**
   * The concrete move; null for an undo.
   */
  move: PlayedMove | null;
  /**
   * No legal move is left, but an undo can still rescue the game: undo (it costs a move) or resign. A game with no legal move ends as `stuck` only when undo cannot help.
   */
  only_undo_left: boolean;
  player_moves: number;
  single_card_moves: number;
  status: "waiting" | "playing" | "won" | "resigned" | "stuck" | "timeout";
  time_ms: number;
  type: "move_accepted";
  /**
   * For `undo`: the moves taken back.
   */
  undone: PlayedMove[];
}
/**
 * A move as the server applied it: its notation in the variant and its structured form.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PlayedMove".
 */
export interface PlayedMove {
  move: StructuredMove;
  notation: string;
}
/**
 * A move as applied: every index filled in (the cell or foundation actually chosen).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "StructuredMove".
 */
export interface StructuredMove {
  count: number;
  from: "tableau" | "cell";
  from_index: number;
  to: "tableau" | "cell" | "foundation";
  to_index: number;
}
/**
 * The parts of your player view this action changed (its move, autoplay, or what an undo took back), as they are now: `tableau` maps each changed column's index (a string) to the whole column, deepest card first, face-down cards null; `cells` and `foundations` are the whole row, present only when changed; `cards_on_foundations` is always there. Put them into your last view in the order they come (`freecell_arena.engine.view.apply_view_changes`).
 */
export interface ViewChanges {
  cards_on_foundations: number;
  /**
   * Items: A card, or null: face down (Cell Eleven) or an empty cell.
   */
  cells?: (string | null)[];
  foundations?: FoundationView[];
  /**
   * Each changed column (by its index as text), whole.
   */
  tableau: {
    /**
     * A column, deepest card first; face-down cards are null.
     *
     * This interface was referenced by `undefined`'s JSON-Schema definition
     * via the `patternProperty` "^(0|[1-9][0-9]?)$".
     *
     * Items: A card, or null: face down (Cell Eleven) or an empty cell.
     */
    [k: string]: (string | null)[] | undefined;
  };
}
/**
 * Your game ended: won, resigned, stuck (no legal move is left), or timeout (the race's time limit, or the
 * close of a daily's day).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "GameOverMessage".
 */
export interface GameOverMessage {
  cards_on_foundations: number;
  game_id: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  message: string;
  outcome: "won" | "resigned" | "stuck" | "timeout";
  player_moves: number;
  single_card_moves: number;
  time_ms: number;
  type: "game_over";
}
/**
 * One player's progress, to the others in the room (the player has it in its reply). Counts only.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ProgressMessage".
 */
export interface ProgressMessage {
  code: string;
  progress: Progress;
  type: "progress";
}
/**
 * Final standings. `seed` is now public for every variant; replays are available (a cup's heat: `seed` null,
 * replays closed, until the cup is over). Sent again after `game_state` to a member of the finished room (a
 * resumed `welcome`, `get_state`).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RaceOverMessage".
 */
export interface RaceOverMessage {
  code: string;
  seed: string | null;
  standings: Standing[];
  type: "race_over";
}
/**
 * One row of the final standings; equal results share a rank.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "Standing".
 */
export interface Standing {
  cards_on_foundations: number;
  game_id: string;
  moves: number;
  name: string;
  outcome: "won" | "resigned" | "stuck" | "timeout";
  player_id: string;
  rank: number;
  single_card_moves: number;
  time_ms: number;
}
/**
 * Your full state: sent after a resumed `welcome` and in reply to `get_state`.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "GameStateMessage".
 */
export interface GameStateMessage {
  game: GameView | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  room: RoomView | null;
  type: "game_state";
}
/**
 * A game's seed and action log; `final_view` is its last board (face-down cards null); `start_view` and
 * `steps` let a viewer step through it without rules of its own.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ReplayMessage".
 */
export interface ReplayMessage {
  actions: string[];
  autoplay: boolean;
  final_view: PlayerView;
  game_id: string;
  /**
   * The game as game text (docs/notation.md, "Game text"): its tags and actions, to save or share (`freecell-arena replay --game` replays it).
   */
  game_text: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  outcome: ("won" | "resigned" | "stuck" | "timeout") | null;
  player_id: string;
  /**
   * A deal's seed as a decimal string (`"7654041082873553397"`): seeds run to 2^63 - 1, beyond what a JSON number holds exactly in JavaScript. The deal number, in `freecell`.
   */
  seed: string;
  start_view: PlayerView1;
  /**
   * Per action, what it changed in the view, as its `move_accepted` `changes` did: `start_view` with the first n steps put in is the board after n actions (`freecell_arena.engine.view.replay_steps`).
   */
  steps: ViewChanges1[];
  type: "replay";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * A player's whole board: what `race_started`, `daily_started` and `game_state` carry as `game.view`.
 */
export interface PlayerView1 {
  cards_on_foundations: number;
  /**
   * The free cells, left to right; null = empty.
   *
   * Items: A card, or null: face down (Cell Eleven) or an empty cell.
   */
  cells: (string | null)[];
  foundations: FoundationView[];
  /**
   * The columns, left to right.
   */
  tableau: (string | null)[][];
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * What one action changed in the player view, as it is now: put each part into the view you hold, in order
 * (`freecell_arena.engine.view.apply_view_changes`). `cells` and `foundations` are there only when changed.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ViewChanges".
 */
export interface ViewChanges1 {
  cards_on_foundations: number;
  /**
   * Items: A card, or null: face down (Cell Eleven) or an empty cell.
   */
  cells?: (string | null)[];
  foundations?: FoundationView[];
  /**
   * Each changed column (by its index as text), whole.
   */
  tableau: {
    /**
     * A column, deepest card first; face-down cards are null.
     *
     * This interface was referenced by `undefined`'s JSON-Schema definition
     * via the `patternProperty` "^(0|[1-9][0-9]?)$".
     *
     * Items: A card, or null: face down (Cell Eleven) or an empty cell.
     */
    [k: string]: (string | null)[] | undefined;
  };
}
/**
 * A page of a board (order: moves, then time, then the finish instant). `next_cursor` null = last page.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "LeaderboardMessage".
 */
export interface LeaderboardMessage {
  board: "daily" | "deal";
  bots: boolean;
  day: string | null;
  entries: LeaderboardRow[];
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  next_cursor: string | null;
  /**
   * daily: the solver's move count for the deal.
   */
  par: number | null;
  /**
   * deal boards: the seed; daily boards: null until the day closes.
   */
  seed: string | null;
  /**
   * Entries on the board.
   */
  total: number;
  type: "leaderboard";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * One entry of a board: a player's best won game of the deal. Equal results share a rank.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "LeaderboardRow".
 */
export interface LeaderboardRow {
  /**
   * The name is a saved player's (or a bot account's): theirs.
   */
  claimed: boolean;
  /**
   * Server instant of the winning move (the last tie-break).
   */
  finished_at: string;
  game_id: string;
  name: string;
  player_id: string;
  player_moves: number;
  rank: number;
  time_ms: number;
}
/**
 * A page of a season table: by wins (more first), then moves over par, then average rank.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SeasonMessage".
 */
export interface SeasonMessage {
  bots: boolean;
  days: number;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  next_cursor: string | null;
  standings: SeasonStanding[];
  /**
   * The last closed day counted (null: no day closed yet).
   */
  through: string | null;
  total: number;
  type: "season";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * A player's season: days won, moves over par summed over those days, and the average final rank.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SeasonStanding".
 */
export interface SeasonStanding {
  average_rank: number;
  /**
   * The name is a saved player's (or a bot account's): theirs.
   */
  claimed: boolean;
  moves_over_par: number;
  name: string;
  player_id: string;
  rank: number;
  wins: number;
}
/**
 * A page of a player's finished games, newest first.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "HistoryMessage".
 */
export interface HistoryMessage {
  bot: boolean;
  /**
   * The name is a saved player's (or a bot account's): theirs.
   */
  claimed: boolean;
  games: HistoryGame[];
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  name: string;
  next_cursor: string | null;
  player_id: string;
  type: "history";
}
/**
 * One finished game. `seed` is null while it is secret (a daily before its day closes, a Cell Eleven race
 * still running, a cup's heat before the cup is over).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "HistoryGame".
 */
export interface HistoryGame {
  /**
   * The board it counts on; null when unranked.
   */
  board: ("daily" | "deal") | null;
  cards_on_foundations: number;
  day: string | null;
  finished_at: string;
  game_id: string;
  outcome: "won" | "resigned" | "stuck" | "timeout";
  /**
   * Your place in the race's standings, once it is over.
   */
  place: number | null;
  player_moves: number;
  /**
   * How many players the race's standings hold.
   */
  players: number | null;
  ranked: boolean;
  /**
   * Your rating's change in this race (null: unrated).
   */
  rating_delta: number | null;
  /**
   * The race's room (null for a daily game).
   */
  room_code: string | null;
  seed: string | null;
  single_card_moves: number;
  started_at: string;
  time_ms: number;
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * A variant's daily deals, newest first.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "DailyMessage".
 */
export interface DailyMessage {
  deals: DailyDeal[];
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  type: "daily";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * A daily deal as the public sees it. `commitment` = SHA-256 of
 * `freecell-arena/daily/v1|variant|day|seed|nonce`, published before the day opens; `seed`, `nonce` and
 * the solver's `solution` (player moves, autoplay on) are revealed when it closes.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "DailyDeal".
 */
export interface DailyDeal {
  closes_at: string;
  commitment: string;
  day: string;
  nonce: string | null;
  opens_at: string;
  /**
   * Known from the day's opening.
   */
  par: number | null;
  rules_version: string;
  seed: string | null;
  solution: string[] | null;
  status: "upcoming" | "open" | "closed";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * Your game of today's deal. `ranked` is false after your first attempt (finished or not), and for a player
 * made after the day's deal opened; `unranked_reason` says which.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "DailyStartedMessage".
 */
export interface DailyStartedMessage {
  /**
   * Games still running then end as `timeout`.
   */
  closes_at: string;
  day: string;
  game: GameView;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  par: number;
  ranked: boolean;
  type: "daily_started";
  /**
   * Why this game is practice (null when ranked): `new_player`, the player was made after today's deal opened (new players rank from tomorrow); `played_before`, the player's first attempt today was the ranked one.
   */
  unranked_reason: ("new_player" | "played_before") | null;
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * To the members of a finished room: the series' next room is open (`race_again` or `join_room` joins it).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SeriesInviteMessage".
 */
export interface SeriesInviteMessage {
  /**
   * The name of who opened it.
   */
  by: string;
  /**
   * The finished room.
   */
  code: string;
  next_code: string;
  type: "series_invite";
}
/**
 * Reply to `passkey_begin`: `options` for `PublicKeyCredential.parseCreationOptionsFromJSON` (save) or
 * `parseRequestOptionsFromJSON` (sign_in), then `navigator.credentials.create`/`get`. Expires in 5 minutes.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PasskeyOptionsMessage".
 */
export interface PasskeyOptionsMessage {
  ceremony: "save" | "sign_in";
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  /**
   * WebAuthn Level 3 PublicKeyCredentialCreationOptionsJSON (save) or PublicKeyCredentialRequestOptionsJSON (sign_in), binary fields base64url.
   */
  options: {
    allowCredentials?: {
      [k: string]: unknown | undefined;
    }[];
    attestation?: string;
    authenticatorSelection?: {
      [k: string]: unknown | undefined;
    };
    challenge: string;
    excludeCredentials?: {
      [k: string]: unknown | undefined;
    }[];
    pubKeyCredParams?: {
      [k: string]: unknown | undefined;
    }[];
    rp?: {
      [k: string]: unknown | undefined;
    };
    rpId?: string;
    timeout?: number;
    user?: {
      [k: string]: unknown | undefined;
    };
    userVerification?: string;
    [k: string]: unknown | undefined;
  };
  type: "passkey_options";
}
/**
 * Reply to a `sign_in` `passkey_finish`: a session of the passkey's player. Keep `token` and say hello
 * with it (on this connection if it has not said hello yet, else on a new one); it is shown once.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SignedInMessage".
 */
export interface SignedInMessage {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  name: string;
  player_id: string;
  token: string;
  type: "signed_in";
}
/**
 * Your account: `saved` once you hold a passkey (your name is then claimed: `name`).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "AccountMessage".
 */
export interface AccountMessage {
  bots: BotView[];
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  /**
   * A moderator: the client offers the console (/mod).
   */
  moderator: boolean;
  name: string;
  passkeys: PasskeyView[];
  player_id: string;
  saved: boolean;
  sessions: TokenView[];
  type: "account";
}
/**
 * One of your bot accounts: a player of its own (`player_id`), and its API tokens (never their secrets).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "BotView".
 */
export interface BotView {
  created_at: string;
  description: string;
  name: string;
  player_id: string;
  tokens: TokenView[];
}
/**
 * A session or a bot's API token, never its secret: `token_id` names it to `revoke_token`.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TokenView".
 */
export interface TokenView {
  created_at: string;
  /**
   * The session this connection said hello with.
   */
  current: boolean;
  label: string;
  last_used_at: string | null;
  revoked: boolean;
  token_id: string;
}
/**
 * One of your passkeys: its credential id (base64url), your name for it, and when it was added and used.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PasskeyView".
 */
export interface PasskeyView {
  created_at: string;
  credential_id: string;
  last_used_at: string | null;
  name: string;
  transports: string[];
}
/**
 * A bot's new API token: shown this once (the server keeps only its hash). Give it to the bot
 * (`freecell-arena-bot --token-file`); a hello with it is that bot, on the bots' boards.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "BotTokenMessage".
 */
export interface BotTokenMessage {
  bot_id: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  name: string;
  token: string;
  type: "bot_token";
}
/**
 * Reply to `sign_out`: the session(s) are revoked and their connections close; forget the token.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "SignedOutMessage".
 */
export interface SignedOutMessage {
  everywhere: boolean;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  /**
   * How many sessions were revoked.
   */
  sessions: number;
  type: "signed_out";
}
/**
 * Sent to the room right after `race_over` of a rated race: each player's change and new rating (again to
 * a member back in the finished room, after its `race_over`).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RaceRatingsMessage".
 */
export interface RaceRatingsMessage {
  changes: RatingChangeView[];
  code: string;
  type: "race_ratings";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RatingChangeView".
 */
export interface RatingChangeView {
  after: RatingView;
  before: RatingView;
  /**
   * after - before, as shown beside the standings (+12 / -8).
   */
  delta: number;
  ladder: "humans" | "bots";
  player_id: string;
}
/**
 * A rating as shown: one number (1500 for a new player), marked provisional while still uncertain.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RatingView".
 */
export interface RatingView {
  provisional: boolean;
  races: number;
  rating: number;
}
/**
 * A "Rating" board page, ranked by the conservative estimate (a lucky first win does not top it).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RatingsMessage".
 */
export interface RatingsMessage {
  /**
   * The requested player's rows (empty: not rated).
   */
  around: RatingRowView[];
  bots: boolean;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  top: RatingRowView[];
  type: "ratings";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RatingRowView".
 */
export interface RatingRowView {
  name: string;
  player_id: string;
  position: number;
  rating: RatingView;
}
/**
 * Consecutive UTC days with a won ranked daily (today still counts until it closes), and a month.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "StreakMessage".
 */
export interface StreakMessage {
  best: number;
  current: number;
  days: CalendarDay[];
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  month: string;
  player_id: string;
  today: string;
  /**
   * Why this player's next game of today's deal would be practice (as `daily_started` would say), so a page can say it before the game starts; null: it would be ranked.
   */
  today_unranked_reason: ("new_player" | "played_before") | null;
  type: "streak";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "CalendarDay".
 */
export interface CalendarDay {
  day: string;
  /**
   * `won` a ranked attempt; `played` a game of the day's deal, none of them a ranked win (practice counts); `missed` a closed day the player could have played ranked; `ahead` not closed yet; `none` nothing to play for this player that day (no deal was dealt, or the player was made that day or later).
   */
  mark: "won" | "played" | "missed" | "ahead" | "none";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PlayerMessage".
 */
export interface PlayerMessage {
  bot: boolean;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  name: string;
  /**
   * A moderator's public notice: marked as playing with help (results count with the programs'), and how many games were voided (counted nowhere, `variants` included).
   */
  notice: string | null;
  player_id: string;
  type: "player";
  variants: PlayerVariant[];
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "PlayerVariant".
 */
export interface PlayerVariant {
  average_moves: number | null;
  /**
   * Ranked daily wins: moves beyond the day's par, on average.
   */
  average_over_par: number | null;
  best_moves: number | null;
  best_streak: number;
  best_time_ms: number | null;
  games: number;
  /**
   * The last rating changes, oldest first (for the chart).
   */
  history: RatingPoint[];
  rating: RatingView | null;
  streak: number;
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
  win_percent: number;
  won: number;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RatingPoint".
 */
export interface RatingPoint {
  at: string;
  /**
   * The rated race's room (null when that room is gone).
   */
  code: string | null;
  delta: number;
  rating: number;
}
/**
 * A finished race beside par: `line` is the solver's solution (player moves, autoplay on), for the replay.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ReviewMessage".
 */
export interface ReviewMessage {
  /**
   * The race's room (null for a daily).
   */
  code: string | null;
  /**
   * The daily's day (null for a race).
   */
  day: string | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  line: string[];
  par: number | null;
  par_status: "solved" | "unsolvable" | "unknown";
  results: ReviewRow[];
  /**
   * A deal's seed as a decimal string (`"7654041082873553397"`): seeds run to 2^63 - 1, beyond what a JSON number holds exactly in JavaScript. The deal number, in `freecell`.
   */
  seed: string;
  start_view: PlayerView2;
  /**
   * Per action of `line`, what it changed (as a replay's steps).
   */
  steps: ViewChanges1[];
  type: "review";
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ReviewRow".
 */
export interface ReviewRow {
  game_id: string;
  moves: number;
  name: string;
  outcome: "won" | "resigned" | "stuck" | "timeout";
  /**
   * Moves beyond par for a win (negative: shorter than the solver's).
   */
  over_par: number | null;
  player_id: string;
  time_ms: number;
}
/**
 * A player's whole board: what `race_started`, `daily_started` and `game_state` carry as `game.view`.
 */
export interface PlayerView2 {
  cards_on_foundations: number;
  /**
   * The free cells, left to right; null = empty.
   *
   * Items: A card, or null: face down (Cell Eleven) or an empty cell.
   */
  cells: (string | null)[];
  foundations: FoundationView[];
  /**
   * The columns, left to right.
   */
  tableau: (string | null)[][];
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ShareMessage".
 */
export interface ShareMessage {
  game_id: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  text: string;
  type: "share";
  url: string;
}
/**
 * The tournaments page: upcoming ones by their start, running ones, and the latest finished.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TournamentListMessage".
 */
export interface TournamentListMessage {
  finished: TournamentSummary[];
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  running: TournamentSummary[];
  type: "tournaments";
  upcoming: TournamentSummary[];
}
/**
 * A tournament as the tournaments page lists it.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TournamentSummary".
 */
export interface TournamentSummary {
  cap: number;
  /**
   * Arena: no race is formed after it; cup: its last round's time limit.
   */
  ends_at: string;
  entrants: number;
  /**
   * Who may enter: anyone, anyone with the link, bots only.
   */
  entry: "public" | "link" | "bots";
  kind: "arena" | "cup";
  name: string;
  phase: "upcoming" | "running" | "finished";
  private: boolean;
  ranked: boolean;
  starts_at: string;
  tournament_id: string;
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * A tournament as its page shows it. `deals` and `nonce` (a cup's) are revealed once it is over.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TournamentMessage".
 */
export interface TournamentMessage {
  /**
   * A cup's: its deals' hash, published before it opens.
   */
  commitment: string | null;
  /**
   * The code of your race that runs or counts down.
   */
  current_race: string | null;
  /**
   * A cup's deals, revealed once it is over.
   */
  deals: string[] | null;
  entered: boolean;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  /**
   * Only to its creator: the private link's code.
   */
  link_code: string | null;
  me: TournamentStanding | null;
  /**
   * With `deals`: what the commitment hashed them with.
   */
  nonce: string | null;
  /**
   * Cup: rounds dealt so far.
   */
  round: number | null;
  rules: TournamentSettings;
  standings: TournamentStanding[];
  tournament: TournamentSummary;
  type: "tournament";
}
/**
 * One line of a tournament's table; the tie rule is docs/tournaments.md's.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TournamentStanding".
 */
export interface TournamentStanding {
  /**
   * Total moves of the races solved.
   */
  moves: number;
  name: string;
  /**
   * Arena: the next race scores double.
   */
  on_streak: boolean;
  /**
   * Why a `paused` entrant is: `chosen` (they paused), `no_move` (an arena's: no move in their last race, so no next race until they come back); null unless paused.
   */
  paused_why: ("chosen" | "no_move") | null;
  player_id: string;
  /**
   * Arena: points; cup: deals solved.
   */
  points: number;
  races: number;
  rank: number;
  /**
   * The points of the last races, oldest first (cup: 1 or 0 per round).
   */
  recent: number[];
  solved: number;
  status: "active" | "paused" | "withdrawn";
  /**
   * Total time of the races solved.
   */
  time_ms: number;
  wins: number;
}
/**
 * A tournament's rules (docs/tournaments.md): what each race is, and when entry closes.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TournamentSettings".
 */
export interface TournamentSettings {
  /**
   * Arena: berserk is offered in each race's countdown.
   */
  berserk: boolean;
  /**
   * Every race on one deal its creator chose (never rated).
   */
  chosen_deal: boolean;
  duration_s: number;
  /**
   * Cup: most players in one heat of a round.
   */
  heat_size: number;
  /**
   * Arena: entry closes this long after the start.
   */
  late_entry_s: number;
  /**
   * Arena: players in a race.
   */
  race_size: number;
  round_interval_s: number;
  /**
   * Cup: its deals, one a round.
   */
  rounds: number;
  time_limit_s: number;
}
/**
 * The reply to entering, withdrawing, pausing or berserking: where you stand now.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TournamentEntryMessage".
 */
export interface TournamentEntryMessage {
  berserk: boolean;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  link_code: string | null;
  status: "active" | "paused" | "withdrawn";
  tournament_id: string;
  type: "tournament_entry";
}
/**
 * Your next tournament race is formed (sent to you alone): its room counts down to `starts_at`.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "TournamentRaceMessage".
 */
export interface TournamentRaceMessage {
  berserk_allowed: boolean;
  code: string;
  round: number;
  starts_at: string;
  tournament_id: string;
  type: "tournament_race";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ReportReceivedMessage".
 */
export interface ReportReceivedMessage {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  report_id: string;
  type: "report_received";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MyReportsMessage".
 */
export interface MyReportsMessage {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  reports: MyReport[];
  type: "my_reports";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "MyReport".
 */
export interface MyReport {
  at: string;
  name: string;
  player_id: string;
  reason: "help" | "name" | "other";
  report_id: string;
  /**
   * Received; acted on by a moderator (what they did is not said); or closed without action.
   */
  status: "received" | "acted_on" | "closed";
}
/**
 * A moderator replaced your name with `name`: choose another (`choose_name`).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "NameReplacedMessage".
 */
export interface NameReplacedMessage {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  name: string;
  type: "name_replaced";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "NameChosenMessage".
 */
export interface NameChosenMessage {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  name: string;
  type: "name_chosen";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModQueueMessage".
 */
export interface ModQueueMessage {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  players: ModQueueEntry[];
  type: "mod_queue";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModQueueEntry".
 */
export interface ModQueueEntry {
  in_force: ModSanction[];
  player: ModPlayer;
  reports: ModReport[];
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModSanction".
 */
export interface ModSanction {
  action_id: number;
  at: string;
  /**
   * The game a void names (open its replay).
   */
  game_id: string | null;
  kind: "mark" | "ban" | "rename" | "void";
  public_reason: string;
  /**
   * Why, as the mod log keeps it.
   */
  reason: string;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModPlayer".
 */
export interface ModPlayer {
  bot: boolean;
  created_at: string;
  moderator: boolean;
  name: string;
  player_id: string;
  saved: boolean;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModReport".
 */
export interface ModReport {
  at: string;
  game_id: string | null;
  reason: "help" | "name" | "other";
  report_id: string;
  /**
   * Null for the server's own report of a suspicious win.
   */
  reporter_id: string | null;
  /**
   * Who reported: the server itself; the target's opponent (raced them in the race of the game the report names, or in any race when it names none); another player.
   */
  reporter_role: "server" | "opponent" | "player";
  source: "player" | "auto";
  status: "open" | "acted" | "dismissed";
  text: string;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModEvidenceMessage".
 */
export interface ModEvidenceMessage {
  games: ModGame[];
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  in_force: ModSanction[];
  /**
   * What each signal means and which values are unusual.
   */
  meanings: ModMeaning[];
  player: ModPlayer;
  ratings: ModRating[];
  reports: ModReport[];
  saved_at: string | null;
  /**
   * What was measured over the games, in one sentence, whatever stands out.
   */
  summary: string;
  /**
   * What stands out in the signals, in words (empty: nothing does).
   */
  suspicion: string[];
  /**
   * The player's tokens, oldest first (an unsaved player has none).
   */
  tokens: ModToken[];
  type: "mod_evidence";
}
/**
 * One ranked game as evidence: its think times, the fair-play screen's figures, the solver's line beside it.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModGame".
 */
export interface ModGame {
  board: string | null;
  daily_day: string | null;
  flagged: string | null;
  floor_ms_per_move: number;
  game_id: string;
  moves: number;
  /**
   * The screen's figure: time over moves (its floor: `floor_ms_per_move`).
   */
  ms_per_move: number;
  outcome: "won" | "resigned" | "stuck" | "timeout";
  par: number | null;
  /**
   * How much think times vary (their coefficient of variation): a person's vary widely (often above 0.6), a program's pacing little.
   */
  regularity: number | null;
  /**
   * `regularity` in words ("varies as a person's", "steady as a program's", ...).
   */
  regularity_words: string;
  /**
   * Share of the moves that follow the solver's line in order.
   */
  solver_agreement: number | null;
  /**
   * `solver_agreement` in words ("its own way", ...).
   */
  solver_words: string;
  /**
   * Milliseconds before each move (the first: from the deal).
   */
  think_ms: number[];
  time_ms: number;
  /**
   * The signals of this game that stand out.
   */
  unusual: ("regularity" | "solver_line")[];
  variant: string;
}
/**
 * What a signal of the evidence means, and which of its values are unusual, in a moderator's words.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModMeaning".
 */
export interface ModMeaning {
  meaning: string;
  signal: string;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModRating".
 */
export interface ModRating {
  history: RatingPoint[];
  ladder: "humans" | "bots";
  races: number;
  rating: number;
  variant: string;
}
/**
 * One of the player's session or bot tokens, as evidence: how old, last used when, revoked or not (a ban revokes
 * them all). Never its secret nor its hash: a moderator has no use for naming it.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModToken".
 */
export interface ModToken {
  created_at: string;
  kind: "session" | "bot";
  last_used_at: string | null;
  revoked: boolean;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModLogMessage".
 */
export interface ModLogMessage {
  entries: ModLogEntry[];
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  type: "mod_log";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModLogEntry".
 */
export interface ModLogEntry {
  action: "grant" | "revoke" | "mark" | "ban" | "rename" | "void" | "lift" | "dismiss";
  action_id: number;
  at: string;
  game_id: string | null;
  lifts: number | null;
  moderator: string;
  /**
   * Null: the operator, from the command line.
   */
  moderator_id: string | null;
  /**
   * The name the player went by when the action was taken (a rename's: the name it replaced).
   */
  name: string;
  player_id: string;
  public_reason: string;
  reason: string;
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModActionMessage".
 */
export interface ModActionMessage {
  entry: ModLogEntry;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  type: "mod_action";
}
/**
 * Moderators with the console open (they asked for `mod_queue` on this connection): an action the mod log
 * gained, from any console, any process or the command line. The queue and the log are stale: ask again.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModLoggedMessage".
 */
export interface ModLoggedMessage {
  entry: ModLogEntry;
  type: "mod_logged";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ModSearchMessage".
 */
export interface ModSearchMessage {
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  players: ModPlayer[];
  type: "mod_search";
}
/**
 * A hint, worked out from what you see (never from a face-down card). Play its moves like any other: each is
 * counted.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "HintMessage".
 */
export interface HintMessage {
  /**
   * The moves that win by sending cards home alone, in order (empty: the game is not decided yet).
   */
  finish: string[];
  game_id: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  /**
   * The next move in the generic notation (`t3-c1`, `c2-f`, `t1-t4x3`); null when the game is won or provably lost.
   */
  move: string | null;
  type: "hint";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "QuickRacesMessage".
 */
export interface QuickRacesMessage {
  /**
   * A player waiting alone this long is offered a bot (`race_bot`); null: this server has no house bot.
   */
  bot_after_s: number | null;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  races: QuickRaceView[];
  type: "quick_races";
}
/**
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "QuickRaceView".
 */
export interface QuickRaceView {
  /**
   * The room filling now (null: none; `quick_race` opens one).
   */
  code: string | null;
  /**
   * Players waiting in it.
   */
  players: number;
  /**
   * When its countdown ends (null: waiting for players).
   */
  starts_at: string | null;
  /**
   * A variant's id (docs/rules.md); a request naming another is refused `unknown_variant`.
   */
  variant: "freecell" | "chinese-freecell" | "freecell-four-deck" | "cell-eleven" | "freecell-three-deck";
}
/**
 * The house bot is on its way to your quick race (it joins like any player: `member_joined`).
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "RaceBotMessage".
 */
export interface RaceBotMessage {
  code: string;
  /**
   * Chosen by the client (a string, or an integer within +-(2^53 - 1)); echoed in the reply.
   */
  id: string | number | null;
  name: string;
  type: "race_bot";
}
/**
 * What one connection lives within, as this server is configured (the defaults are below): a client paces
 * itself by these rather than by guesses. Every limit a client can meet is here or in `CloseCode`.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "ConnectionLimits".
 */
export interface ConnectionLimits1 {
  /**
   * Messages that may come at once, above the sustained rate.
   */
  burst: number;
  /**
   * A connection without `hello` by then is closed (1008).
   */
  hello_timeout_s: number;
  /**
   * A connection that sends no message for this long is closed (1008).
   */
  idle_timeout_s: number;
  /**
   * A frame larger than this closes the connection (close code 1009) with no error frame.
   */
  max_frame_bytes: number;
  /**
   * A larger frame (UTF-8 bytes) is dropped, answered `message_too_large`.
   */
  max_message_bytes: number;
  /**
   * The server sends a websocket ping this often (websocket libraries answer it).
   */
  ping_interval_s: number;
  /**
   * A ping not answered within this long closes the connection (1011).
   */
  ping_timeout_s: number;
  /**
   * Messages a second, sustained; past it a message is dropped, answered `rate_limited`.
   */
  rate_per_s: number;
}
/**
 * How a quick race (`quick_race`) fills and starts, as this server is configured.
 *
 * This interface was referenced by `Protocol`'s JSON-Schema
 * via the `definition` "QuickRaceSizes".
 */
export interface QuickRaceSizes1 {
  /**
   * The countdown once `min_players` are in.
   */
  countdown_s: number;
  /**
   * A full quick race starts at once.
   */
  max_players: number;
  /**
   * Its countdown starts once this many players are in.
   */
  min_players: number;
}
