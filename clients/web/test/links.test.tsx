// SPDX-License-Identifier: AGPL-3.0-or-later
// Addresses always lead somewhere: a finished table's address shows its result and
// the replay; an unknown invite says so and offers the lobby. And the replay names
// bots apart and groups the moves.
import { render } from "preact";
import { act } from "preact/test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { setLang } from "../src/i18n";
import { groupMoves } from "../src/ui/Replay";
import { Root } from "../src/ui/Root";
import { replaySeatName } from "../src/ui/Table";
import type { Json } from "../src/words";
import { fixture, makeApp } from "./helpers";

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
  localStorage.setItem("casa.name", "bea");
});
const settle = () => new Promise((r) => setTimeout(r, 150));

function serve(replays: Record<string, Json>) {
  (globalThis as Json).fetch = async (url: string) => {
    const id = Object.keys(replays).find((k) => url.includes(`/api/tables/${k}/replay`));
    return id ? { ok: true, status: 200, text: async () => JSON.stringify(replays[id]) } : { ok: false, status: 404 };
  };
}

describe("links", () => {
  it("a finished table the server no longer runs shows its result and the replay", async () => {
    const replay = fixture("replay-la-casa.json");
    serve({ [replay.table]: replay });
    history.replaceState(null, "", `/table/${replay.table}`);
    const { app } = makeApp();
    render(<Root app={app} />, root);
    app.receive({ type: "error", code: "no_such_table", message: "There is no such table.", id: 3 });
    await settle();
    expect(root.textContent).not.toContain("Opening table");
    expect(root.textContent).toContain("this game is over");
    expect(root.textContent).toContain("robot (seat 1) wins.");
    const watch = [...root.querySelectorAll("a")].find((a) => a.textContent === "Watch the replay")!;
    expect(watch.getAttribute("href")).toBe(`/replay/${replay.table}`);
    expect(root.querySelector(".errors")).toBeNull();
  });

  it("an unknown table says so and offers the lobby", async () => {
    serve({});
    history.replaceState(null, "", "/table/nope");
    const { app } = makeApp();
    render(<Root app={app} />, root);
    app.receive({ type: "error", code: "no_such_table", message: "There is no such table.", id: 3 });
    await settle();
    expect(root.textContent).toContain("There is no table nope here");
    expect([...root.querySelectorAll("a")].some((a) => a.textContent === "Back to the lobby")).toBe(true);
  });

  it("an expired invite says so and offers the lobby", async () => {
    history.replaceState(null, "", "/join/OLD1");
    const { app } = makeApp();
    render(<Root app={app} />, root);
    app.receive({ type: "error", code: "no_such_table", message: "There is no such table.", id: 2 });
    await settle();
    expect(root.textContent).toContain("This invitation is no longer valid");
    expect(root.textContent).not.toContain("Opening the invitation");
    expect([...root.querySelectorAll("a")].some((a) => a.textContent === "Go to the lobby")).toBe(true);
  });

  it("shows no connection badge before a name is chosen", async () => {
    localStorage.removeItem("casa.name");
    history.replaceState(null, "", "/");
    const { app } = makeApp();
    app.state.connection = "connecting";
    render(<Root app={app} />, root);
    await settle();
    expect(root.textContent).not.toContain("connecting");
    expect(root.querySelector(".conn")).toBeNull();
  });
});

describe("replay", () => {
  it("names each bot with its seat", () => {
    const seats = [{ bot: "robot", seat: 0 }, { bot: "robot", seat: 1 }, { name: "ann", seat: 2 }];
    expect([0, 1, 2].map((s) => replaySeatName(seats, s))).toEqual(["robot (seat 1)", "robot (seat 2)", "ann"]);
  });

  it("groups the moves by round and trick", () => {
    const r = fixture("replay-la-casa.json");
    const groups = groupMoves(r.log, r.initial_state);
    expect(groups.length).toBeGreaterThanOrEqual(1);
    expect(groups[0].round).toBe(1);
    const flat = groups.flatMap((g) => g.tricks.flatMap((t) => t.moves));
    expect(flat).toEqual(r.log.map((_: Json, i: number) => i));
    // 16 tricks in a two-player round: every trick has its group.
    const tricks = groups[0].tricks.map((t) => t.trick);
    expect(tricks[0]).toBe(1);
    expect(Math.max(...(tricks as number[]))).toBe(r.log[r.log.length - 1].state?.tricks_played ?? r.final_state.tricks_played);
  });
});

describe("the invite page", () => {
  it("names the people seated, the game and the free seats", async () => {
    history.replaceState(null, "", "/join/INV9");
    const { app } = makeApp();
    render(<Root app={app} />, root);
    app.receive({
      type: "table_state", table: "t9", game: "casino", players: 3, status: "waiting", seq: 0, seat: -1, invite: "INV9",
      seats: [{ seat: 0, kind: "player", name: "ann" }, { seat: 1, kind: "empty" }, { seat: 2, kind: "bot", name: "robot", bot: "robot" }],
      teams: [[0], [1], [2]], options: {}, private: true, move_timeout_seconds: 0, view: null,
    });
    app.changed();
    await settle();
    const intro = root.querySelector(".invite-intro")!.textContent;
    expect(intro).toContain("ann invites you to a game of Casino: 2 of 3 seats taken (1 bot).");
    expect(intro).toContain("One seat is free");
  });
  it("names the table's creator as the server says, even when the creator does not sit", async () => {
    history.replaceState(null, "", "/join/INV8");
    const { app } = makeApp();
    render(<Root app={app} />, root);
    app.receive({
      type: "table_state", table: "t8", game: "la-casa", players: 4, status: "waiting", seq: 0, seat: -1, invite: "INV8",
      creator: { player_id: "p-ann", name: "Ann" },
      seats: [{ seat: 0, kind: "player", name: "bea" }, { seat: 1, kind: "empty" }, { seat: 2, kind: "empty" }, { seat: 3, kind: "empty" }],
      teams: [[0, 2], [1, 3]], options: {}, private: true, move_timeout_seconds: 0, view: null,
    });
    app.changed();
    await settle();
    const intro = root.querySelector(".invite-intro")!.textContent;
    expect(intro).toContain("Ann invites you to a game of La Casa: 1 of 4 seats taken.");
    expect(intro).toContain("3 seats are free");
  });
  it("says the same in Italian, from the catalogue", async () => {
    setLang("it", false);
    try {
      history.replaceState(null, "", "/join/INV7");
      const { app } = makeApp();
      await act(async () => render(<Root app={app} />, root));
      await act(async () => {
        app.receive({
          type: "table_state", table: "t7", game: "casino", players: 3, status: "waiting", seq: 0, seat: -1, invite: "INV7",
          creator: { player_id: "p-ann", name: "Ann" },
          seats: [{ seat: 0, kind: "player", name: "ann" }, { seat: 1, kind: "empty" }, { seat: 2, kind: "bot", name: "robot", bot: "robot" }],
          teams: [[0], [1], [2]], options: {}, private: true, move_timeout_seconds: 0, view: null,
        });
        app.changed();
      });
      const intro = root.querySelector(".invite-intro")!.textContent;
      expect(intro).toContain("Ann ti invita a una partita di Casino: posti occupati 2 su 3, di cui 1 bot.");
      expect(intro).toContain("C'è un posto libero");
    } finally {
      render(null, root);
      setLang("en", false);
    }
  });
});

describe("replay position", () => {
  it("names La Casa's round, Challenge and Ruling Family while stepping", async () => {
    const { positionText } = await import("../src/ui/Replay");
    const r = fixture("replay-la-casa.json");
    const st = r.log[Math.floor(r.log.length / 2)].state;
    expect(positionText(st, "la-casa", "Round")).toBe(`Round 1 · Challenge: Cousins · Ruling Family: Masks ☺ · ${st.tricks_played} tricks played`);
    expect(positionText({ hand_number: 2, tricks_played: 1 }, "trophy-case", "Hand")).toBe("Hand 2 · 1 trick played");
    expect(positionText({ round: 2, challenge: 6, ruling: -1 }, "la-casa", "Round")).toBe("Round 2 · Challenge: Cards on the Table");
  });
});
