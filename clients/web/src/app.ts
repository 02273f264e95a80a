// SPDX-License-Identifier: AGPL-3.0-or-later
// The page's controller: owns the connection and the state, turns clicks into
// protocol messages, and routes between the lobby, a table and a replay.
import { Alerts } from "./alerts";
import { gameTitle } from "./catalogue";
import { Connection, forgetToken, saveName, savedName, type Outgoing, type RequestError } from "./net";
import { t as tr } from "./i18n";
import { decisionLines } from "./phrases";
import { AppState, initialState, reduce, tableEntry } from "./store";
import type { ClientMessageOf, ServerMessage, ServerWelcome } from "./protocol.gen";

/** A create_table message without its type, as the lobby's form fills it. */
export type NewTable = Omit<Outgoing<"create_table">, "type">;

export type Route =
  | { page: "lobby" }
  | { page: "join"; invite: string }
  | { page: "table"; table: string }
  | { page: "replay"; table: string }
  | { page: "leaderboard"; game: string }
  | { page: "player"; id: string }
  | { page: "event"; event: string }
  | { page: "help"; game?: string }
  | { page: "account" };

export function parseRoute(path: string): Route {
  let m = path.match(/^\/join\/([^/]+)\/?$/);
  if (m) return { page: "join", invite: decodeURIComponent(m[1]) };
  m = path.match(/^\/table\/([^/]+)\/?$/);
  if (m) return { page: "table", table: decodeURIComponent(m[1]) };
  m = path.match(/^\/replay\/([^/]+)\/?$/);
  if (m) return { page: "replay", table: decodeURIComponent(m[1]) };
  m = path.match(/^\/leaderboard(?:\/([^/]+))?\/?$/);
  if (m) return { page: "leaderboard", game: m[1] ? decodeURIComponent(m[1]) : "la-casa" };
  m = path.match(/^\/players\/([^/]+)\/?$/);
  if (m) return { page: "player", id: decodeURIComponent(m[1]) };
  m = path.match(/^\/event\/([^/]+)\/?$/);
  if (m) return { page: "event", event: decodeURIComponent(m[1]) };
  if (/^\/account\/?$/.test(path)) return { page: "account" };
  m = path.match(/^\/help(?:\/([^/]+))?\/?$/);
  if (m) return { page: "help", game: m[1] ? decodeURIComponent(m[1]) : undefined };
  return { page: "lobby" };
}

const CREATED_KEY = "casa.created";
const RESYNC_DELAY_MS = 60;
/** Messages after which "Your games" is asked for again (once, after a short quiet). */
const MY_TABLES_CHANGES = new Set<string>(["request", "table_update", "game_over", "table_closed", "table_created", "joined", "left"]);
const MY_TABLES_DELAY_MS = 400;

export class App {
  state: AppState = initialState();
  route: Route = parseRoute(location.pathname);
  conn: Connection;
  alerts = new Alerts();
  private alerted = new Map<string, number>(); // table -> seq of the request already alerted
  private listeners = new Set<() => void>();
  private resyncTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private myTablesTimer: ReturnType<typeof setTimeout> | null = null;
  private watched = new Set<string>(); // tables this page spectates (re-spectated on reconnect)
  private probing = new Set<string>(); // tables opened by address, waiting for their first state
  /** Tables and invites the server does not know (finished and put away, or never made). */
  missingTables = new Set<string>();
  missingInvites = new Set<string>();
  /** Called after each message has been applied and the page re-rendered (benchmarks). */
  afterRender: ((m: ServerMessage) => void) | null = null;

  constructor(conn?: Connection) {
    this.conn = conn ?? new Connection();
    this.conn.onStatus = (s) => {
      this.state.connection = s;
      this.changed();
    };
    this.conn.onMessage = (m) => this.receive(m);
    this.alerts.onChange(() => this.changed());
    this.conn.onWelcome = () => this.afterWelcome();
    window.addEventListener("popstate", () => {
      this.route = parseRoute(location.pathname);
      this.enterRoute();
      this.changed();
    });
  }

  subscribe(f: () => void): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }
  changed(): void {
    for (const f of this.listeners) f();
  }

  start(): void {
    if (savedName()) this.conn.connect();
  }

  receive(m: ServerMessage): void {
    if (m.type === "error" && m.code === "no_such_table" && this.routeUnknown()) {
      // The address names a table the server does not run: the page says so in place.
      if (this.route.page === "table") this.missingTables.add(this.route.table);
      if (this.route.page === "join") this.missingInvites.add(this.route.invite);
      this.changed();
      this.afterRender?.(m);
      return;
    }
    if (m.type === "table_created" || m.type === "rematch_created") {
      const id = m.type === "rematch_created" ? m.new_table : m.table;
      this.markCreated(id);
    }
    if (m.type === "table_state" && this.probing.delete(m.table) && m.seat === -1 && m.status !== "over") {
      this.spectate(m.table);
    }
    this.callBack(m);
    // "Your games" follows the turns while the lobby shows it.
    if (this.route.page === "lobby" && MY_TABLES_CHANGES.has(m.type)) this.scheduleMyTables();
    const changed = reduce(this.state, m);
    if ("table" in m && m.table) {
      const t = this.state.tables[m.table];
      if (t?.stale) this.scheduleResync(m.table);
    }
    if (changed) this.changed();
    this.afterRender?.(m);
  }

  /** Tells a player whose tab is hidden that it is their turn, that someone wrote, that a game of theirs ended or that they are invited. */
  private callBack(m: ServerMessage): void {
    if (m.type === "request" && Array.isArray(m.legal) && m.legal.length && typeof m.table === "string") {
      if (this.alerted.get(m.table) === m.seq) return; // the same decision sent again
      this.alerted.set(m.table, m.seq);
      const game = this.state.tables[m.table]?.state?.game ?? m.view?.game ?? "";
      const what = decisionLines(m.legal, game, m.view?.phase)[0]?.text ?? "";
      this.alerts.notice("turn", tr("alert.turnBody", { game: game ? gameTitle(game) + ", " : "", table: m.table, what }));
    } else if (m.type === "chat" && m.from !== this.state.me?.player_id) {
      const t = this.state.tables[m.table];
      if (typeof m.line === "number" && t?.chat.some((c) => c.line === m.line)) return; // already shown
      this.alerts.notice("chat", `${m.name}: ${m.text}`);
    } else if (m.type === "game_over") {
      const t = this.state.tables[m.table];
      if (t?.gameOver || t?.state?.seat === -1) return; // known already, or watched only
      const game = t?.state?.game ?? "";
      this.alerts.notice("over", tr("alert.overBody", { game: game ? gameTitle(game) + ", " : "", table: m.table }));
    } else if (m.type === "invitation") {
      if (this.state.invitations.some((i) => i.invitation === m.invitation)) return; // sent again on hello
      this.alerts.notice("invite", tr("alert.inviteBody", { from: m.from.name, game: gameTitle(m.game) }));
    }
  }

  /** The route's table or invite has no state yet (an answer "no such table" is about it). */
  private routeUnknown(): boolean {
    const r = this.route;
    if (r.page === "table") return !this.state.tables[r.table]?.state;
    if (r.page === "join") return !Object.values(this.state.tables).some((x) => x.invite === r.invite || x.state?.invite === r.invite);
    return false;
  }

  private scheduleResync(table: string): void {
    const old = this.resyncTimers.get(table);
    if (old) clearTimeout(old);
    this.resyncTimers.set(
      table,
      setTimeout(() => {
        this.resyncTimers.delete(table);
        const t = this.state.tables[table];
        if (t?.stale) this.conn.send({ type: "resync", table });
      }, RESYNC_DELAY_MS),
    );
  }

  private afterWelcome(): void {
    // Back after a lost connection: the events missed meanwhile come with the
    // history (docs/protocol.md, History), which replaces the log and score sheet.
    for (const id of this.watched) this.conn.send({ type: "spectate", table: id, history: true });
    const r = this.route;
    if (r.page === "table" && this.state.tables[r.table]?.state && !this.watched.has(r.table)) {
      this.conn.send({ type: "resync", table: r.table, history: true });
    }
    this.enterRoute();
  }

  /** What a route needs from the server once connected. */
  enterRoute(): void {
    if (this.state.connection !== "open") return;
    const r = this.route;
    if (r.page === "lobby") {
      this.refreshLobby();
      this.refreshMyTables();
    }
    if (r.page === "join") {
      this.conn
        .request({ type: "spectate", invite: r.invite, history: true })
        .then((m) => {
          const t = tableEntry(this.state, m.table);
          t.invite = r.invite;
          this.watched.add(m.table);
          this.changed();
        })
        .catch((e) => this.fail(e));
    }
    if (r.page === "table") {
      const t = this.state.tables[r.table];
      if (!t?.state) {
        // resync answers with this player's seat (also at a finished table); a page
        // that turns out not to sit there then watches the table.
        this.probing.add(r.table);
        // With its history: after a reload the log and the score sheet come
        // back whole, at a table the page sits at, watches or that is over.
        this.conn.send({ type: "resync", table: r.table, history: true });
      }
    }
  }

  navigate(path: string): void {
    if (location.pathname !== path) history.pushState(null, "", path);
    this.route = parseRoute(path);
    this.enterRoute();
    this.changed();
  }

  fail(e: unknown): void {
    const err = e as Partial<RequestError> | null;
    if (err && err.type === "error" && !this.state.errors.some((x) => x === e)) {
      if (err.id === undefined) return; // already reported by reduce
    }
    this.changed();
  }

  dismissError(i: number): void {
    this.state.errors.splice(i, 1);
    this.changed();
  }

  setName(name: string): void {
    const first = !savedName();
    saveName(name);
    if (first) {
      this.conn.connect();
    } else if (this.state.me && this.state.me.name !== name) {
      // A resumed player keeps its name: a new name is a new player.
      forgetToken();
      this.conn.drop();
    }
    this.changed();
  }

  refreshLobby(): void {
    this.conn.request({ type: "list_tables" }).catch(() => {});
  }

  private scheduleMyTables(): void {
    if (this.myTablesTimer) clearTimeout(this.myTablesTimer);
    this.myTablesTimer = setTimeout(() => {
      this.myTablesTimer = null;
      this.refreshMyTables();
    }, MY_TABLES_DELAY_MS);
  }

  /** Asks for "Your games" again (the lobby's panel; the server does not push it). */
  refreshMyTables(): void {
    if (this.state.connection !== "open") return;
    this.conn.request({ type: "my_tables" }).catch(() => {});
  }

  createdByMe(table: string): boolean {
    return (JSON.parse(localStorage.getItem(CREATED_KEY) ?? "[]") as string[]).includes(table);
  }
  private markCreated(table: string): void {
    const list = JSON.parse(localStorage.getItem(CREATED_KEY) ?? "[]") as string[];
    if (!list.includes(table)) list.push(table);
    localStorage.setItem(CREATED_KEY, JSON.stringify(list.slice(-50)));
  }

  async createTable(msg: NewTable, botsInOtherSeats = false): Promise<void> {
    try {
      const created = await this.conn.request({ type: "create_table", ...msg });
      const t = tableEntry(this.state, created.table);
      t.invite = created.invite;
      this.navigate(`/table/${created.table}`);
      if (botsInOtherSeats) {
        const mine = created.seat;
        for (let s = 0; s < msg.players; s++) {
          if (s !== mine) await this.conn.request({ type: "add_bot", table: created.table, seat: s, bot: "robot" });
        }
      }
    } catch (e) {
      this.fail(e);
    }
  }

  async sit(table: string, seat: number): Promise<void> {
    const t = this.state.tables[table];
    const msg: Outgoing<"join"> = { type: "join", seat };
    if (t?.invite) msg.invite = t.invite;
    else msg.table = table;
    try {
      await this.conn.request(msg);
      this.watched.delete(table);
      if (t) t.spectating = false;
      this.navigate(`/table/${table}`);
    } catch (e) {
      this.fail(e);
    }
  }

  spectate(table: string): void {
    this.watched.add(table);
    this.conn.request({ type: "spectate", table }).catch((e) => this.fail(e));
  }

  addBot(table: string, seat: number, bot: ServerWelcome["bots"][number]): void {
    this.conn.request({ type: "add_bot", table, seat, bot }).catch((e) => this.fail(e));
  }

  leave(table: string): void {
    this.watched.delete(table);
    this.conn.request({ type: "leave", table }).catch(() => {});
    this.navigate("/");
  }

  act(table: string, action: ClientMessageOf<"action">["action"]): void {
    const t = this.state.tables[table];
    if (!t?.request) return;
    const seq = t.request.seq;
    t.request = null; // no double click: the next request comes from the server
    this.changed();
    this.conn.request({ type: "action", table, seq, action }).catch((e: RequestError) => {
      if (e?.code !== "draining") this.fail(e);
      this.conn.send({ type: "resync", table });
    });
  }

  chat(table: string, text: string, team: boolean): void {
    const msg: Outgoing<"chat"> = { type: "chat", table, text };
    if (team) msg.team = true;
    this.conn.send(msg);
  }

  async rematch(table: string): Promise<void> {
    try {
      const m = await this.conn.request({ type: "rematch", table });
      this.navigate(`/table/${m.new_table}`);
    } catch (e) {
      this.fail(e);
    }
  }
}
