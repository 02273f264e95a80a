// SPDX-License-Identifier: AGPL-3.0-or-later
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Connection, saveName } from "../src/net";

/** A WebSocket stand-in: records sent frames; the test plays the server. */
class FakeSocket {
  static all: FakeSocket[] = [];
  static OPEN = 1;
  readyState = 0;
  sent: any[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(public url: string) {
    FakeSocket.all.push(this);
  }
  send(s: string) {
    this.sent.push(JSON.parse(s));
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  serve(m: object) {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
}

beforeEach(() => {
  FakeSocket.all = [];
  localStorage.clear();
  vi.stubGlobal("WebSocket", FakeSocket);
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("Connection", () => {
  it("says hello with the saved name, keeps the token, and resumes with it after a drop", () => {
    saveName("ann");
    const c = new Connection("ws://x/ws");
    const seen: string[] = [];
    c.onMessage = (m) => seen.push(m.type);
    c.connect();
    const ws = FakeSocket.all[0];
    ws.open();
    expect(ws.sent[0]).toMatchObject({ type: "hello", version: 1, name: "ann" });
    expect(ws.sent[0].token).toBeUndefined();
    ws.serve({ type: "welcome", id: 0, token: "t0k", player_id: "p1", name: "ann", resumed: false });
    expect(localStorage.getItem("casa.token")).toBe("t0k");
    // Sent while the network is gone: queued, then sent after the next welcome.
    ws.close();
    c.send({ type: "chat", table: "t1", text: "hi" });
    vi.advanceTimersByTime(300);
    const again = FakeSocket.all[1];
    expect(again).toBeDefined();
    again.open();
    expect(again.sent[0]).toMatchObject({ type: "hello", token: "t0k" });
    expect(again.sent.length).toBe(1);
    again.serve({ type: "welcome", id: 0, token: "t0k", player_id: "p1", name: "ann", resumed: true });
    expect(again.sent[1]).toEqual({ type: "chat", table: "t1", text: "hi" });
    expect(seen).toEqual(["welcome", "welcome"]);
  });

  it("matches replies to requests by id and rejects errors", async () => {
    const c = new Connection("ws://x/ws");
    c.connect();
    const ws = FakeSocket.all[0];
    ws.open();
    ws.serve({ type: "welcome", id: 0, token: "t", player_id: "p", name: "n", resumed: false });
    const ok = c.request({ type: "list_tables" });
    const bad = c.request({ type: "join", table: "nope" });
    const [r1, r2] = ws.sent.slice(1);
    ws.serve({ type: "error", id: r2.id, code: "no_such_table", message: "No such table." });
    ws.serve({ type: "tables", id: r1.id, tables: [] });
    await expect(ok).resolves.toMatchObject({ type: "tables" });
    await expect(bad).rejects.toMatchObject({ code: "no_such_table" });
  });

  it("stops reconnecting once another page took over the token", () => {
    const c = new Connection("ws://x/ws");
    c.connect();
    const ws = FakeSocket.all[0];
    ws.open();
    ws.serve({ type: "welcome", id: 0, token: "t", player_id: "p", name: "n", resumed: false });
    ws.serve({ type: "error", code: "replaced", message: "A newer connection took over this player." });
    ws.close();
    vi.advanceTimersByTime(10000);
    expect(FakeSocket.all.length).toBe(1);
    expect(c.replaced).toBe(true);
  });

  it("forgets a token the server does not know and starts afresh", () => {
    localStorage.setItem("casa.token", "old");
    const c = new Connection("ws://x/ws");
    c.connect();
    FakeSocket.all[0].open();
    FakeSocket.all[0].serve({ type: "error", id: 0, code: "bad_token", message: "This token is unknown." });
    expect(localStorage.getItem("casa.token")).toBeNull();
    vi.advanceTimersByTime(300);
    FakeSocket.all[1].open();
    expect(FakeSocket.all[1].sent[0].token).toBeUndefined();
  });
  it("on `reconnect` waits after_ms instead of the backoff, and resumes with the token", () => {
    const c = new Connection("ws://x/ws");
    c.connect();
    const ws = FakeSocket.all[0];
    ws.open();
    ws.serve({ type: "welcome", id: 0, token: "t0k", player_id: "p1", name: "ann", resumed: false });
    // The server drains: told to come back after 40 ms, then closed.
    ws.serve({ type: "reconnect", reason: "draining", after_ms: 40 });
    ws.close();
    vi.advanceTimersByTime(39);
    expect(FakeSocket.all.length).toBe(1);
    vi.advanceTimersByTime(1);
    const again = FakeSocket.all[1];
    expect(again).toBeDefined();
    again.open();
    expect(again.sent[0]).toMatchObject({ type: "hello", token: "t0k" });
    // Once only: a later plain drop waits the backoff (250 ms) again.
    again.close();
    vi.advanceTimersByTime(40);
    expect(FakeSocket.all.length).toBe(2);
    vi.advanceTimersByTime(210);
    expect(FakeSocket.all.length).toBe(3);
  });
});
