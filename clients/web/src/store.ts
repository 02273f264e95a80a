// SPDX-License-Identifier: AGPL-3.0-or-later
// The page's state, changed only by server messages (reduce) and by the page's own
// navigation. Views are the server's: after events the page asks for a fresh
// table_state instead of working out the consequences itself.
import type {
  ServerChat, ServerGameOver, ServerHistory, ServerInvitation, ServerMessage, ServerMyTables, ServerRematchCreated, ServerRematchOffer,
  ServerRequest, ServerTableClosed, ServerTableInvitation, ServerTableState, ServerWelcome, TableSummary,
} from "./protocol.gen";
import type { Json } from "./words";

export interface LogLine {
  seq: number;
  event: Json;
  auto?: string;
}
export interface ChatLine {
  line?: number; // the line's number in the table's chat (servers that store chat)
  from: string;
  name: string;
  seat: number;
  team: boolean;
  spectator?: boolean; // written by a spectator, not a player of the table
  text: string;
}
export interface SheetRow {
  label: string;
  scores: number[];
  detail?: Json;
  seq?: number; // the table's seq when the round ended
}

export interface TableEntry {
  id: string;
  state: ServerTableState | null; // the latest table_state, seats/status refreshed by table_update
  request: ServerRequest | null; // the pending request of my seat, its view whole (view_patch applied)
  log: LogLine[];
  chat: ChatLine[];
  sheet: SheetRow[];
  gameOver: Pick<ServerGameOver, "table" | "seq" | "scores" | "winners" | "deal"> | null;
  clock: { seats: number[]; remaining_ms: number; received: number } | null;
  closed: ServerTableClosed | { reason: "closed"; message?: undefined } | null;
  rematch: ServerRematchCreated | ServerRematchOffer | null;
  spectating: boolean;
  invite?: string;
  stale: boolean; // events arrived after the view: a resync is due
  view?: Json | null; // the last view received (table_state or request): what a view_patch applies to
  history?: number; // the seq of the last history the server sent (log and sheet rebuilt from it)
}

/** One of "Your games" (docs/protocol.md): an unfinished table where this player sits. */
export type MyTable = ServerMyTables["tables"][number];

export interface AppState {
  connection: "connecting" | "open" | "closed";
  me: { player_id: string; name: string } | null;
  games: string[];
  bots: ServerWelcome["bots"];
  lobby: TableSummary[];
  tables: Record<string, TableEntry>;
  errors: { code: string; message: string; table?: string }[];
  invitations: ServerInvitation[]; // invitations to rated events that wait for this player's answer
  tableInvitations: ServerTableInvitation[]; // friends' invitations to their tables, not yet settled
  myTables: MyTable[] | null; // "Your games", as the server last listed them (null: not asked yet)
  myTablesAt: number; // when that list came (Date.now()), for the times left
}

export function initialState(): AppState {
  return {
    connection: "connecting", me: null, games: [], bots: [], lobby: [], tables: {}, errors: [], invitations: [],
    tableInvitations: [], myTables: null, myTablesAt: 0,
  };
}

export function tableEntry(s: AppState, id: string): TableEntry {
  let t = s.tables[id];
  if (!t) {
    t = {
      id, state: null, request: null, log: [], chat: [], sheet: [], gameOver: null,
      clock: null, closed: null, rematch: null, spectating: false, stale: false,
    };
    s.tables[id] = t;
  }
  return t;
}

const LOG_LIMIT = 300;

/** A score-sheet row from a round / hand summary event, or null. */
export function sheetRow(e: Json): SheetRow | null {
  if (e.type === "round_end") {
    const scores = Array.isArray(e.scores) ? e.scores : typeof e.total === "number" ? [e.total] : [];
    return { label: `Round ${e.round ?? ""}`.trim(), scores, detail: e };
  }
  if (e.type === "hand_end" && Array.isArray(e.game_points)) {
    return { label: "Hand", scores: e.game_points, detail: e };
  }
  return null;
}

/** Rebuilds the log and the score sheet from a `history` message (docs/protocol.md,
 * History): the events the server sent this seat (or spectator) since the game
 * began, and every round's summary. Lines that came live after it stay. */
function applyHistory(t: TableEntry, m: ServerHistory): void {
  const at: number = m.seq ?? 0;
  const events = Array.isArray(m.events) ? m.events : [];
  const rounds = Array.isArray(m.rounds) ? m.rounds : [];
  const later = t.log.filter((l) => l.seq > at);
  t.log = events.map((e): LogLine => ({ seq: e.seq, event: e.event, auto: e.auto })).concat(later);
  if (t.log.length > LOG_LIMIT) t.log.splice(0, t.log.length - LOG_LIMIT);
  const laterRows = t.sheet.filter((r) => (r.seq ?? 0) > at);
  const rows: SheetRow[] = [];
  for (const r of rounds) {
    const row = sheetRow(r.event ?? {});
    if (row) rows.push({ ...row, seq: r.seq });
  }
  t.sheet = rows.concat(laterRows);
  t.history = at;
}

/** Applies a JSON merge patch (RFC 7386) to a copy of `target`. */
export function mergePatch(target: Json, patch: Json): Json {
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return patch;
  const out: Json = target !== null && typeof target === "object" && !Array.isArray(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Applies one server message. Returns true when the state changed. Every type of
 * server.json has its case: a new one fails the type check until it is handled here. */
export function reduce(s: AppState, m: ServerMessage, now = Date.now()): boolean {
  switch (m.type) {
    case "welcome":
      s.me = { player_id: m.player_id, name: m.name };
      s.games = m.games ?? [];
      s.bots = m.bots ?? [];
      return true;
    case "tables":
      s.lobby = m.tables ?? [];
      return true;
    case "my_tables":
      s.myTables = m.tables ?? [];
      s.myTablesAt = now;
      return true;
    case "table_state": {
      const t = tableEntry(s, m.table);
      t.state = m;
      t.view = m.view ?? null;
      t.stale = false;
      t.spectating = m.seat === -1;
      if (m.invite) t.invite = m.invite;
      if (Array.isArray(m.chat)) mergeChat(t, m.chat);
      if (m.clock !== undefined) t.clock = m.clock ? { ...m.clock, received: now } : null;
      if (m.status !== "playing" || (t.request && t.request.seq < m.seq)) {
        if (t.request && t.request.seq !== m.seq) t.request = null;
      }
      if (m.status === "over" && !t.gameOver) {
        // Opened after the end: the view says who won (Solo names "human" or "robot").
        const v: Json = m.view ?? {};
        const winners = v.winners ?? (v.winner === "human" ? [0] : v.winner === "robot" ? [-1] : []);
        t.gameOver = { table: m.table, seq: m.seq, scores: v.scores, winners };
      }
      if (m.status === "closed") t.closed = t.closed ?? { reason: "closed" }; // the page says "closed" in its own words
      return true;
    }
    case "history": {
      applyHistory(tableEntry(s, m.table), m);
      return true;
    }
    case "table_update": {
      const t = tableEntry(s, m.table);
      if (t.state) {
        t.state = { ...t.state, status: m.status ?? t.state.status, seats: m.seats ?? t.state.seats };
      }
      return true;
    }
    case "request": {
      const t = tableEntry(s, m.table);
      if (m.view_patch !== undefined) {
        // The whole view from here on, as if the server had sent it.
        const { view_patch, ...rest } = m;
        m = { ...rest, view: mergePatch(t.view ?? {}, view_patch) } as ServerRequest;
      }
      t.view = m.view ?? null;
      t.request = m;
      if (t.state) {
        t.state = { ...t.state, view: m.view ?? null, seq: m.seq };
        t.stale = false;
      }
      if (typeof m.deadline_ms === "number") {
        t.clock = { seats: [m.seat], remaining_ms: m.deadline_ms, received: now };
      }
      return true;
    }
    case "accepted": {
      const t = s.tables[m.table];
      if (t && t.request && t.request.seq < m.seq) t.request = null;
      return true;
    }
    case "event": {
      const t = tableEntry(s, m.table);
      t.log.push({ seq: m.seq, event: m.event, auto: m.auto });
      if (t.log.length > LOG_LIMIT) t.log.splice(0, t.log.length - LOG_LIMIT);
      const row = sheetRow(m.event);
      if (row) t.sheet.push({ ...row, seq: m.seq });
      if (t.state && m.seq > t.state.seq) t.stale = true;
      if (t.request && t.request.seq < m.seq) t.request = null;
      return true;
    }
    case "game_over": {
      const t = tableEntry(s, m.table);
      t.gameOver = m;
      t.request = null;
      t.clock = null;
      if (t.state) t.state = { ...t.state, status: "over" };
      t.stale = true;
      return true;
    }
    case "clock": {
      const t = tableEntry(s, m.table);
      t.clock = { seats: m.seats ?? [], remaining_ms: m.remaining_ms, received: now };
      return true;
    }
    case "table_closed": {
      const t = tableEntry(s, m.table);
      t.closed = m;
      t.request = null;
      t.clock = null;
      if (t.state) t.state = { ...t.state, status: "closed" };
      return true;
    }
    case "chat": {
      const t = tableEntry(s, m.table);
      mergeChat(t, [m]);
      return true;
    }
    case "rematch_created":
    case "rematch_offer": {
      const t = tableEntry(s, m.table);
      t.rematch = m;
      return true;
    }
    case "spectating": {
      tableEntry(s, m.table).spectating = true;
      return true;
    }
    case "invitation": {
      // Sent again on every hello while it waits: kept once.
      const invitation = m;
      s.invitations = s.invitations.filter((i) => i.invitation !== invitation.invitation).concat([invitation]);
      return true;
    }
    case "invitation_answered": {
      const answered = m.invitation;
      s.invitations = s.invitations.filter((i) => i.invitation !== answered);
      return true;
    }
    case "table_invitation": {
      // On every device of the player, and again after each hello while it waits.
      const invitation = m;
      s.tableInvitations = s.tableInvitations.filter((i) => i.invitation !== invitation.invitation).concat([invitation]);
      return true;
    }
    case "table_invitation_closed": {
      const closed = m.invitation;
      const before = s.tableInvitations.length;
      s.tableInvitations = s.tableInvitations.filter((i) => i.invitation !== closed);
      return s.tableInvitations.length !== before;
    }
    case "left": {
      delete s.tables[m.table];
      return true;
    }
    case "error":
      // draining: the server restarts; the resume brings the request again.
      if (m.code === "stale_seq" || m.code === "replaced" || m.code === "draining") return false;
      s.errors.push({ code: m.code, message: m.message, table: m.table });
      if (s.errors.length > 3) s.errors.shift();
      return true;
    // Replies the page reads where it sent the request (app.ts), and the server's
    // notice before it goes away (net.ts): nothing to keep.
    case "table_created":
    case "event_created":
    case "friend_invited":
    case "joined":
    case "bot_added":
    case "pong":
    case "reconnect":
      return false;
    default: {
      // A type the schemas do not know (a newer server): ignored.
      const unknown: never = m;
      void unknown;
      return false;
    }
  }
}

/** Remaining milliseconds of the running move timer, or null. */
export function clockLeft(t: TableEntry, now = Date.now()): number | null {
  if (!t.clock) return null;
  return Math.max(0, t.clock.remaining_ms - (now - t.clock.received));
}

/** Adds chat lines, live or from a table_state's history (after a reload or a
 * restart), once each: a numbered line already shown is not shown again. */
function mergeChat(t: TableEntry, lines: (ServerChat | NonNullable<ServerTableState["chat"]>[number])[]): void {
  for (const m of lines) {
    if (typeof m.line === "number" && t.chat.some((c) => c.line === m.line)) continue;
    t.chat.push({ line: m.line, from: m.from, name: m.name, seat: m.seat, team: !!m.team, spectator: m.spectator === true, text: m.text });
  }
  t.chat.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
  if (t.chat.length > LOG_LIMIT) t.chat.splice(0, t.chat.length - LOG_LIMIT);
}
