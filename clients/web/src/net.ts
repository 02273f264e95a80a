// SPDX-License-Identifier: AGPL-3.0-or-later
// One WebSocket to casa-server speaking protocol v1. Reconnects by itself with the
// resume token (kept in localStorage with the name), so a reload or a lost network
// brings the player back to the same seats.
import { t } from "./i18n";
import type { ClientHello, ClientMessage, ClientMessageOf, ServerError, ServerMessage, ServerMessageOf, ServerWelcome } from "./protocol.gen";

const TOKEN_KEY = "casa.token";
const NAME_KEY = "casa.name";

export function savedName(): string {
  return localStorage.getItem(NAME_KEY) ?? "";
}
export function saveName(name: string): void {
  localStorage.setItem(NAME_KEY, name);
}
/** The resume token, if any: it also opens the replays of private tables this player sat at. */
export function savedToken(): string {
  return localStorage.getItem(TOKEN_KEY) ?? "";
}
/** Keeps a session token (a sign-in on this device): the next hello resumes its player. */
export function saveToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}
/** Forgets the resume token: the next hello makes a new player. */
export function forgetToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

/** The direct reply to each client message that has one (docs/protocol.md); a new
 * client message in client.json fails the type check until it is named here. */
type Replies = {
  hello: "welcome";
  create_table: "table_created";
  list_tables: "tables";
  join: "joined";
  leave: "left";
  spectate: "spectating";
  add_bot: "bot_added";
  action: "accepted";
  chat: never;
  rematch: "rematch_created";
  resync: never;
  ping: "pong";
  create_event: "event_created";
  accept_invitation: "invitation_answered";
  decline_invitation: "invitation_answered";
  invite_friend: "friend_invited";
  decline_table_invitation: "table_invitation_closed";
  my_tables: "my_tables";
};
type Reply<T extends ClientMessage["type"]> = ServerMessageOf<Replies[T] & ServerMessage["type"]>;
/** A client message as the page writes it: the connection numbers requests itself. */
export type Outgoing<T extends ClientMessage["type"]> = Omit<ClientMessageOf<T>, "id">;
/** Why a request failed: the server's error, or the page's own when the connection is lost. */
export type RequestError = ServerError | { type: "error"; code: "disconnected"; message: string; id?: undefined; table?: undefined };

type Pending = { resolve: (m: ServerMessage) => void; reject: (m: RequestError) => void };

export class Connection {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private backoff = 250;
  /** Set by the server's `reconnect` (it drains): the wait before the next connect. */
  private reconnectAfter: number | null = null;
  private closedByPage = false;
  private welcomed = false;
  private queue: ClientMessage[] = [];
  replaced = false;
  onMessage: (m: ServerMessage) => void = () => {};
  onStatus: (s: "connecting" | "open" | "closed") => void = () => {};
  onWelcome: (m: ServerWelcome) => void = () => {};

  constructor(private url = Connection.defaultUrl()) {}

  static defaultUrl(): string {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws`;
  }

  connect(): void {
    this.closedByPage = false;
    this.onStatus("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      // view_patch: requests say only what changed in the view (docs/protocol.md, Features).
      const hello: ClientHello = { type: "hello", version: 1, features: ["view_patch"] };
      const name = savedName();
      if (name) hello.name = name;
      const token = localStorage.getItem(TOKEN_KEY);
      if (token) hello.token = token;
      ws.send(JSON.stringify({ ...hello, id: 0 }));
    };
    ws.onmessage = (ev) => {
      let m: ServerMessage;
      try {
        m = JSON.parse(String(ev.data)) as ServerMessage; // the server's frames match its schemas
      } catch {
        return;
      }
      this.receive(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcomed = false;
      for (const p of this.pending.values()) p.reject({ type: "error", code: "disconnected", message: t("net.lost") });
      this.pending.clear();
      this.onStatus("closed");
      if (!this.closedByPage) {
        let wait = this.backoff;
        if (this.reconnectAfter !== null) {
          // Asked to come back (the server restarts, or this node of several
          // stops): not a failure, so the backoff does not grow.
          wait = this.reconnectAfter;
          this.reconnectAfter = null;
        } else {
          this.backoff = Math.min(this.backoff * 2, 5000);
        }
        setTimeout(() => this.connect(), wait);
      }
    };
  }

  /** Drops the connection as a lost network would (it reconnects by itself). */
  drop(): void {
    this.ws?.close();
  }

  close(): void {
    this.closedByPage = true;
    this.ws?.close();
  }

  private receive(m: ServerMessage): void {
    if (m.type === "welcome") {
      localStorage.setItem(TOKEN_KEY, m.token);
      this.welcomed = true;
      this.backoff = 250;
      this.onStatus("open");
      this.onMessage(m);
      this.onWelcome(m);
      const queued = this.queue;
      this.queue = [];
      for (const q of queued) this.ws?.send(JSON.stringify(q));
      return;
    }
    if (m.type === "reconnect") {
      // The socket closes next; connect again after after_ms and resume.
      this.reconnectAfter = Math.max(0, Number(m.after_ms) || 0);
    }
    if (m.type === "error" && m.code === "replaced") {
      // The same player opened the page elsewhere: that page plays now, this one stops.
      this.closedByPage = true;
      this.replaced = true;
    }
    if (m.type === "error" && m.code === "bad_token" && !this.welcomed) {
      // The server no longer knows the token (a new database): start afresh.
      localStorage.removeItem(TOKEN_KEY);
      this.ws?.close();
      return;
    }
    if ("id" in m && typeof m.id === "number" && m.id !== 0) {
      const p = this.pending.get(m.id);
      if (p) {
        this.pending.delete(m.id);
        if (m.type === "error") p.reject(m);
        else p.resolve(m);
      }
    }
    this.onMessage(m);
  }

  /** Sends a request and resolves with its direct reply (rejects with an error). */
  request<T extends ClientMessage["type"]>(msg: Outgoing<T> & { type: T }): Promise<Reply<T>> {
    const id = this.nextId++;
    const framed = { ...msg, id } as ClientMessage;
    return new Promise((resolve, reject) => {
      // The reply is the one the server sends for this type, with this id.
      this.pending.set(id, { resolve: (m) => resolve(m as Reply<T>), reject });
      this.send(framed);
    });
  }

  /** Sends without waiting for a reply (chat, resync). */
  send(msg: ClientMessage): void {
    if (this.ws && this.welcomed && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else this.queue.push(msg);
  }
}
