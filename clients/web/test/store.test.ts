// SPDX-License-Identifier: AGPL-3.0-or-later
import { describe, expect, it } from "vitest";
import { clockLeft, initialState, mergePatch, reduce } from "../src/store";
import { fixture } from "./helpers";

describe("reduce", () => {
  it("keeps an invitation once, however often it comes, until it is answered", () => {
    const s = initialState();
    const inv = { type: "invitation" as const, invitation: "i0123456789", event: "e1", from: { player_id: "p1", name: "ann" }, game: "la-casa", players: 2, boards: 1, expires_in_seconds: 600 };
    reduce(s, inv);
    reduce(s, { ...inv, expires_in_seconds: 300 }); // again, on the next hello
    expect(s.invitations.map((i) => i.expires_in_seconds)).toEqual([300]);
    reduce(s, { type: "invitation_answered", invitation: "i0123456789", event: "e1", player_id: "p2", answer: "accepted" });
    expect(s.invitations).toEqual([]);
  });

  it("shows the chat history of a table_state once, with later live lines in order", () => {
    const s = initialState();
    const st = fixture("la-casa-4p-state.json");
    const line = (n: number, text: string) => ({ line: n, from: "p1", name: "ann", seat: 0, team: false, text });
    reduce(s, { type: "chat", table: st.table, ...line(3, "third") });
    reduce(s, { ...st, chat: [line(1, "first"), line(2, "second"), line(3, "third")] });
    const t = s.tables[st.table];
    expect(t.chat.map((c) => c.text)).toEqual(["first", "second", "third"]);
    // A reload brings the same history again: nothing doubles.
    reduce(s, { ...st, chat: [line(2, "second"), line(3, "third")] });
    reduce(s, { type: "chat", table: st.table, ...line(4, "fourth") });
    expect(t.chat.map((c) => c.text)).toEqual(["first", "second", "third", "fourth"]);
  });

  it("keeps a chat line's spectator mark, live and from the history", () => {
    const s = initialState();
    const st = fixture("la-casa-4p-state.json");
    reduce(s, { type: "chat", table: st.table, line: 1, from: "p9", name: "ann", seat: -1, team: false, spectator: true, text: "I resign" });
    reduce(s, { ...st, chat: [{ line: 2, from: "p1", name: "ann", seat: 0, team: false, text: "no" }] });
    const t = s.tables[st.table];
    expect(t.chat.map((c) => c.spectator)).toEqual([true, false]);
  });

  it("rebuilds the log and the whole score sheet from a history, keeping later live events", () => {
    const s = initialState();
    const st = fixture("la-casa-4p-state.json");
    reduce(s, { ...st, seq: 30 });
    const t = s.tables[st.table];
    // A reloaded page: the live event of seq 31 overtook nothing, but a line at
    // seq 29 it already held comes again in the history, once.
    reduce(s, { type: "event", table: st.table, seq: 29, event: { type: "play", seat: 1, card: "G5" } });
    const end1 = { type: "round_end", round: 1, scores: [3, 1] };
    reduce(s, {
      type: "history", table: st.table, seq: 30, seat: 0, omitted: 0,
      events: [
        { seq: 12, event: { type: "play", seat: 0, card: "R1" }, auto: "timer" },
        { seq: 20, event: end1 },
        { seq: 29, event: { type: "play", seat: 1, card: "G5" } },
      ],
      rounds: [{ seq: 20, event: end1 }],
    });
    reduce(s, { type: "event", table: st.table, seq: 31, event: { type: "play", seat: 2, card: "B3" } });
    expect(t.log.map((l) => l.seq)).toEqual([12, 20, 29, 31]);
    expect(t.log[0].auto).toBe("timer");
    expect(t.sheet.map((r) => [r.label, r.scores])).toEqual([["Round 1", [3, 1]]]);
    expect(t.history).toBe(30);
    // The same history again (a second device, a reconnect): nothing doubles.
    reduce(s, { type: "history", table: st.table, seq: 31, seat: 0, omitted: 0,
                events: [{ seq: 20, event: end1 }, { seq: 31, event: { type: "play", seat: 2, card: "B3" } }],
                rounds: [{ seq: 20, event: end1 }] });
    expect(t.log.map((l) => l.seq)).toEqual([20, 31]);
    expect(t.sheet.length).toBe(1);
  });

  it("keeps the table state, the pending request and drops it once acted", () => {
    const s = initialState();
    const st = fixture("la-casa-4p-state.json");
    reduce(s, st);
    const req = fixture("la-casa-4p-request.json");
    req.table = st.table;
    reduce(s, req);
    const t = s.tables[st.table];
    expect(t.request!.seq).toBe(3);
    expect(t.state!.view!.trick.length).toBe(3);
    reduce(s, { type: "accepted", table: st.table, seq: 4 });
    expect(t.request).toBeNull();
  });

  it("applies a request's view_patch to the last view it got (RFC 7386)", () => {
    const s = initialState();
    const st = fixture("la-casa-4p-state.json");
    reduce(s, st);
    const t = s.tables[st.table];
    const before = t.state!.view!;
    reduce(s, { type: "request", table: st.table, seq: 6, seat: 0, legal: [{ type: "pass" }],
                view_patch: { round: 99, trick: [], no_such: null } });
    expect(t.request!.view_patch).toBeUndefined();
    expect(t.request!.view).toEqual({ ...before, round: 99, trick: [] });
    expect(t.state!.view).toEqual(t.request!.view);
    // The next patch applies to that view; a member set to null is removed.
    reduce(s, { type: "request", table: st.table, seq: 7, seat: 0, legal: [{ type: "pass" }],
                view_patch: { trick: ["G5"], round: null } });
    const { round: _gone, ...rest } = before;
    expect(t.request!.view).toEqual({ ...rest, trick: ["G5"] });
    // A whole view replaces it.
    reduce(s, { type: "request", table: st.table, seq: 8, seat: 0, legal: [{ type: "pass" }], view: { a: 1 } });
    reduce(s, { type: "request", table: st.table, seq: 9, seat: 0, legal: [{ type: "pass" }], view_patch: {} });
    expect(t.request!.view).toEqual({ a: 1 });
  });

  it("mergePatch follows RFC 7386", () => {
    expect(mergePatch({ a: "b" }, { a: "c" })).toEqual({ a: "c" });
    expect(mergePatch({ a: "b" }, { b: "c" })).toEqual({ a: "b", b: "c" });
    expect(mergePatch({ a: "b" }, { a: null })).toEqual({});
    expect(mergePatch({ a: [{ b: "c" }] }, { a: [1] })).toEqual({ a: [1] });
    expect(mergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
    expect(mergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
    const base = { x: { y: 1 } };
    mergePatch(base, { x: { y: 2 } });
    expect(base).toEqual({ x: { y: 1 } });  // the target is not changed
  });

  it("logs events, marks the view stale and fills the score sheet", () => {
    const s = initialState();
    const st = fixture("la-casa-4p-state.json");
    reduce(s, st);
    reduce(s, { type: "event", table: st.table, seq: 5, event: { type: "play", seat: 1, card: "G1", from: "hand" }, auto: "away" });
    const t = s.tables[st.table];
    expect(t.stale).toBe(true);
    expect(t.log[0].auto).toBe("away");
    reduce(s, { type: "event", table: st.table, seq: 9, event: { type: "round_end", round: 1, scores: [2, 0], points: [2, 0] } });
    expect(t.sheet).toEqual([expect.objectContaining({ label: "Round 1", scores: [2, 0] })]);
    reduce(s, st);
    expect(t.stale).toBe(false);
  });

  it("updates seats from table_update: away, takeover countdown, played_by", () => {
    const s = initialState();
    const st = fixture("la-casa-4p-state.json");
    reduce(s, st);
    const seats = st.seats.map((x: object) => ({ ...x }));
    seats[2] = { ...seats[2], connected: false, away: true, takeover_in_ms: 30000 };
    reduce(s, { type: "table_update", table: st.table, status: "playing", seats });
    expect(s.tables[st.table].state!.seats[2].away).toBe(true);
    expect(s.tables[st.table].state!.seats[2].takeover_in_ms).toBe(30000);
  });

  it("shows a finished game opened later with the winners of its view", () => {
    const s = initialState();
    reduce(s, { type: "table_state", table: "t2", game: "la-casa", players: 2, status: "over", seq: 40, seat: 0, seats: [], teams: [], options: {}, private: false, move_timeout_seconds: 0, view: { mode: "solo", winner: "robot", scores: [3] } });
    expect(s.tables.t2.gameOver).toMatchObject({ winners: [-1], scores: [3] });
    reduce(s, { type: "table_state", table: "t3", game: "la-casa", players: 2, status: "over", seq: 40, seat: 0, seats: [], teams: [], options: {}, private: false, move_timeout_seconds: 0, view: { winners: [1, 3], scores: [2, 12] } });
    expect(s.tables.t3.gameOver!.winners).toEqual([1, 3]);
  });

  it("runs the clock from the moment it arrived", () => {
    const s = initialState();
    reduce(s, { type: "clock", table: "t1", seq: 3, seats: [1], remaining_ms: 10000 }, 1000);
    expect(clockLeft(s.tables.t1, 4000)).toBe(7000);
    expect(clockLeft(s.tables.t1, 20000)).toBe(0);
  });

  it("closes a table with the server's sentence", () => {
    const s = initialState();
    reduce(s, fixture("la-casa-4p-state.json"));
    const id = Object.keys(s.tables)[0];
    reduce(s, { type: "table_closed", table: id, reason: "abandoned", message: "Everyone left." });
    expect(s.tables[id].closed!.message).toBe("Everyone left.");
    expect(s.tables[id].state!.status).toBe("closed");
  });

  it("ignores stale_seq errors and keeps the last three others", () => {
    const s = initialState();
    expect(reduce(s, { type: "error", code: "stale_seq", message: "x" })).toBe(false);
    for (let i = 0; i < 5; i++) reduce(s, { type: "error", code: "bad_field", message: `m${i}` });
    expect(s.errors.map((e) => e.message)).toEqual(["m2", "m3", "m4"]);
  });
});
