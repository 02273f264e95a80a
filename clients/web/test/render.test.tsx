// SPDX-License-Identifier: AGPL-3.0-or-later
import { render } from "preact";
import { act } from "preact/test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { TablePage } from "../src/ui/Table";
import { webcrypto } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ReplayPage } from "../src/ui/Replay";
import { makeVerifier, webCryptoSha256, type AsyncVerifier } from "../src/verify";
import type { Json } from "../src/words";
import { fixture, makeApp } from "./helpers";

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
});

function show(app: ReturnType<typeof makeApp>["app"], id: string) {
  act(() => render(<TablePage app={app} id={id} />, root));
}

function seated(view: Json, legal: Json[] | null, extra: Json = {}) {
  const { app, conn } = makeApp();
  const players = view.players ?? view.hand_sizes?.length ?? 1;
  const seats = Array.from({ length: players }, (_, i) =>
    i === 0 ? { seat: 0, kind: "player", name: "ann", connected: true } : { seat: i, kind: "bot", name: "robot", bot: "robot" },
  );
  app.receive({ type: "table_state", table: "t1", game: view.game, players, status: "playing", seq: 4, seat: view.seat ?? 0, seats, teams: view.teams ?? seats.map((s) => [s.seat]), options: {}, private: false, move_timeout_seconds: 0, view, ...extra });
  if (legal) app.receive({ type: "request", table: "t1", seq: 4, seat: 0, legal, view });
  return { app, conn };
}

describe("table page", () => {
  it("lights the legal card, dims the others, and sends the action verbatim", () => {
    const st = fixture("la-casa-4p-state.json");
    const req = fixture("la-casa-4p-request.json");
    const { app, conn } = makeApp();
    app.receive(st);
    app.receive({ ...req, table: st.table });
    show(app, st.table);
    const lit = [...root.querySelectorAll(".hand button.card.legal")].map((b) => b.getAttribute("data-card"));
    expect(lit).toEqual(["M3"]);
    const dimmed = [...root.querySelectorAll(".hand .card.unplayable")].map((b) => b.getAttribute("data-card"));
    expect(dimmed).toEqual(["G4", "G5", "G9", "K5", "K8", "F7"]);
    // The trick shows the three cards played before, with their players.
    expect(root.querySelector(".current-trick")!.textContent).toContain("robot");
    expect(root.querySelectorAll(".current-trick .card").length).toBe(3);
    act(() => (root.querySelector('button[data-card="M3"]') as HTMLButtonElement).click());
    const sent = conn.sent.find((m) => m.type === "action");
    expect(sent).toEqual({ type: "action", table: st.table, seq: 3, action: { card: "M3", type: "play" } });
    // Once sent, nothing stays clickable until the next request.
    show(app, st.table);
    expect(root.querySelectorAll("button.card.legal").length).toBe(0);
  });

  it("shows seats with their teams and hand sizes", () => {
    const st = fixture("la-casa-4p-state.json");
    const { app } = makeApp();
    app.receive(st);
    show(app, st.table);
    const seats = [...root.querySelectorAll(".seat")];
    expect(seats.length).toBe(4);
    expect(seats[0].textContent).toContain("ann (you)");
    expect(seats[0].textContent).toContain("Team A");
    expect(seats[1].textContent).toContain("Team B");
    expect(seats[2].textContent).toContain("bea");
    expect(seats[2].textContent).toContain("7 cards");
  });

  it("builds a bid selection and a pass button from the request", () => {
    const req = fixture("la-casa-2p-bidding.json");
    const { app, conn } = seated(req.view, req.legal);
    show(app, "t1");
    const select = root.querySelector(".choices select") as HTMLSelectElement;
    expect(select.options.length).toBe(15);
    expect(select.options[0].textContent).toBe("Bid 2 tricks");
    const pass = [...root.querySelectorAll(".choices button")].find((b) => b.textContent === "Pass") as HTMLButtonElement;
    act(() => pass.click());
    expect(conn.sent.at(-1)).toMatchObject({ type: "action", seq: 4, action: { type: "pass" } });
    // Tableaux of the two-player game: face-up cards and the face-down ones as counts.
    expect(root.querySelector('[aria-label="Tableaux"]')!.textContent).toContain("+1 face down");
  });

  it("asks which action when one card has several (Casino)", () => {
    const view = {
      game: "casino", seat: 0, players: 2, phase: "play", to_act: [0], turn: 0, round: 1, dealer: 1, deck: 40,
      table: { loose: ["8D", "8C", "2H"], builds: [] }, hand: ["8H", "KC"], hand_sizes: [2, 4], captures: [[], []],
      scores: [0, 0], teams: [[0], [1]], options: { target: 21 },
    };
    const legal = [
      { type: "capture", card: "8H", loose: ["8D"], builds: [] },
      { type: "capture", card: "8H", loose: ["8D", "8C"], builds: [] },
      { type: "trail", card: "8H" },
      { type: "trail", card: "KC" },
    ];
    const { app, conn } = seated(view, legal);
    show(app, "t1");
    act(() => (root.querySelector('.hand button[data-card="8H"]') as HTMLButtonElement).click());
    const options = [...root.querySelectorAll(".card-choices button")].map((b) => b.textContent);
    expect(options).toEqual(["Capture 8 of Diamonds with 8 of Hearts", "Capture 8 of Diamonds + 8 of Clubs with 8 of Hearts", "Trail 8 of Hearts", "Cancel"]);
    act(() => (root.querySelectorAll(".card-choices button")[1] as HTMLButtonElement).click());
    expect(conn.sent.at(-1)!.action).toEqual(legal[1]);
    // Loose cards on the table are drawn but not clickable: only hand cards act.
    expect(root.querySelectorAll(".casino-table .card").length).toBe(3);
  });

  it("draws a spectator's table without a hand and with nothing to click", () => {
    const st = fixture("la-casa-4p-state.json");
    const view = { ...st.view, seat: -1 };
    delete view.hand;
    const { app } = makeApp();
    app.receive({ ...st, seat: -1, view });
    show(app, st.table);
    expect(root.querySelector(".hand")).toBeNull();
    expect(root.querySelectorAll("button.card").length).toBe(0);
    expect(root.textContent).toContain("spectating");
  });

  it("draws Trophy Case, Conference and Solo views with their cards", () => {
    const tc = {
      game: "trophy-case", seat: 0, players: 3, phase: "play", to_act: [0], turn: 0, scores: [3, 0, 5], target: 30, dealer: 1,
      hand_number: 1, stock_size: 132, hand_sizes: [13, 13, 12], hand: ["MAZ1", "MAZX", "T-GRUE"],
      trick: { leader: 2, led_suit: "MAZ", led_colour: "red", suit_order: ["MAZ"], in: [0, 1, 2], folded: [], plays: [{ seat: 2, card: "MAZ2" }] },
      last_trick: null, teams: [[0], [1], [2]],
    };
    let r = seated(tc, [{ type: "play", card: "MAZ1" }, { type: "play", card: "MAZX" }, { type: "fold" }]);
    show(r.app, "t1");
    expect([...root.querySelectorAll("button.card.legal")].map((b) => b.getAttribute("data-card"))).toEqual(["MAZ1", "MAZX"]);
    expect(root.querySelector('[data-card="MAZX"] .rank')!.textContent).toBe("∞");
    expect(root.textContent).toContain("Fold (out of this trick)");
    expect(root.querySelectorAll(".seat")[2].textContent).toContain("5 points");

    const conf = {
      game: "conference", seat: 0, players: 4, phase: "play", to_act: [0], hand_number: 1, dealer: 1, contract: 83, direction: "left",
      hand: ["E10", "T21", "FOOL"], hand_sizes: [3, 3, 3, 3], sides: [[0, 1], [2, 3]], teams: [[0, 1], [2, 3]], game_points: [0, 0], tricks_won: [0, 0],
      trick: { leader: 3, led: "earth", plays: [{ seat: 3, card: "E2" }] }, tricks: [], scores: [0, 0, 0, 0],
    };
    r = seated(conf, [{ type: "play", card: "E10" }, { type: "play", card: "FOOL" }]);
    show(r.app, "t1");
    expect(root.querySelector('[data-card="FOOL"]')!.getAttribute("title")).toBe("the Fool");
    expect(root.querySelector('[data-card="T21"]')!.classList.contains("unplayable")).toBe(true);
    expect(root.textContent).toContain("Earth led");

    const solo = {
      game: "la-casa", mode: "solo", seat: 0, teams: [[0]], phase: "play", to_act: [0], round: 1, rounds: 6, challenge: "carita",
      ruling: "guns", cousins: null, lead: null, points: 0, pile: 10, hand: ["G1", "MC"], hand_size: 2,
      robot: { columns: [{ column: 1, face_up: "K3", face_down: 2 }], cards: 3 }, casa: { card: "G7", face_down: 0 },
      trick: [], last_trick: { cards: ["F1", "F2"], winner: "robot" }, tricks: { human: 1, robot: 2 },
    };
    r = seated(solo, [{ type: "play", card: "MC" }]);
    show(r.app, "t1");
    expect(root.querySelector('[data-card="MC"]')!.getAttribute("title")).toBe("the Mangia-Cake");
    expect(root.textContent).toContain("Last trick — won by Robot");
    expect(root.textContent).toContain("+2 down");
  });

  it("shows away players, the takeover countdown and who plays for them", () => {
    const st = fixture("la-casa-4p-state.json");
    st.seats[2] = { ...st.seats[2], connected: false, away: true, takeover_in_ms: 42000 };
    st.seats[1] = { ...st.seats[1] };
    const { app } = makeApp();
    app.receive(st);
    show(app, st.table);
    const seat2 = root.querySelectorAll(".seat")[2].textContent!;
    expect(seat2).toContain("away");
    expect(seat2).toContain("0:42");
    app.receive({ type: "table_update", table: st.table, status: "playing", seats: st.seats.map((s: Json, i: number) => (i === 2 ? { ...s, takeover_in_ms: undefined, played_by: "robot" } : s)) });
    show(app, st.table);
    expect(root.querySelectorAll(".seat")[2].textContent).toContain("played by robot");
  });

  it("shows the game over with winners, a rematch button and the replay link", () => {
    const st = fixture("la-casa-4p-state.json");
    const { app, conn } = makeApp();
    app.receive(st);
    app.receive({ type: "game_over", table: st.table, seq: 30, scores: [4, 1], winners: [0, 2] });
    show(app, st.table);
    expect(root.querySelector(".winners")!.textContent).toBe("Ann (you) and bea win.");
    expect(root.querySelector(`a[href="/replay/${st.table}"]`)).not.toBeNull();
    act(() => ([...root.querySelectorAll(".game-over button")].find((b) => b.textContent === "Rematch") as HTMLButtonElement).click());
    expect(conn.sent.at(-1)).toMatchObject({ type: "rematch", table: st.table });
  });
});

describe("replay page", () => {
  it("steps through the moves in words and shows every hand of a state", async () => {
    const replay = {
      table: "t9", game: "la-casa", players: 2, seats: [{ seat: 0, name: "ann" }, { seat: 1, bot: "robot" }], winners: [0], scores: [1, 0],
      rounds: [{ round: 1, scores: [1, 0] }],
      log: [
        { seq: 1, seat: 0, action: { type: "play", card: "G5" } },
        { seq: 2, seat: 1, action: { type: "play", card: "G7" } },
      ],
      final_state: { hands: [["K1"], ["M2"]] },
    };
    (globalThis as Json).fetch = async (url: string) =>
      url.includes("/api/tables/t9/replay") ? { ok: true, status: 200, text: async () => JSON.stringify(replay) } : { ok: false, status: 404 };
    await act(async () => {
      render(<ReplayPage id="t9" navigate={() => {}} />, root);
    });
    for (let i = 0; i < 5 && !root.textContent!.includes("Move "); i++) {
      await act(async () => {
        await new Promise((r) => setTimeout(r, 10));
      });
    }
    expect(root.textContent).toContain("Move 2 of 2");
    expect(root.querySelector(".replay-hands")!.textContent).toContain("ann");
    act(() => (root.querySelector('[aria-label="Previous move"]') as HTMLButtonElement).click());
    expect(root.textContent).toContain("Move 1 of 2");
    expect(root.querySelector(".replay-move")!.textContent).toBe("ann: Play 5 of Guns");
    // No commitment in this replay (an older table): the page says so.
    expect(root.querySelector(".fair-deal")!.textContent).toContain("published no commitment");
  });

  // A real finished game (test/fixtures, see verify.test.ts), checked by the real
  // WebAssembly module, loaded from disk instead of the page's asset.
  const loadReal = () => makeVerifier(readFileSync(join(process.cwd(), "src/wasm/casa-verify.wasm")), webCryptoSha256(webcrypto.subtle as SubtleCrypto));
  async function showReplay(replay: Json, verifier: () => Promise<AsyncVerifier> = loadReal) {
    (globalThis as Json).fetch = async (url: string) =>
      url.includes(`/api/tables/${replay.table}/replay`) ? { ok: true, status: 200, text: async () => JSON.stringify(replay) } : { ok: false, status: 404 };
    await act(async () => {
      render(<ReplayPage id={replay.table} navigate={() => {}} verifier={verifier} />, root);
    });
    for (let i = 0; i < 100 && !root.querySelector(".deal-verdict:not(.muted)"); i++) {
      await act(async () => {
        await new Promise((r) => setTimeout(r, 10));
      });
    }
  }

  it("shows the deal commitment and the verdict of the full check: commitment, deal, every move, the end", async () => {
    const replay = fixture("replay-la-casa.json");
    await showReplay(replay);
    const section = root.querySelector(".fair-deal")!;
    expect(section.querySelector(".deal-hash")!.textContent).toBe(replay.deal_commitment.hash);
    expect(section.querySelector(".deal-seed")!.textContent).toBe(replay.deal.seed);
    expect(section.querySelector(".deal-salt")!.textContent).toBe(replay.deal.salt);
    expect(section.querySelector(".deal-verdict.ok")!.textContent).toContain("Verified");
    expect(section.querySelectorAll(".checks li.ok").length).toBe(4);
    expect(section.querySelector(".checks .check-action")!.textContent).toContain(`All ${replay.log.length} moves`);
    expect(section.textContent).toContain(`casa verify ${replay.table}`);
  });

  it("names the first check that fails, and the ones it did not reach", async () => {
    const replay = fixture("replay-la-casa.json");
    replay.log[3].seat = 1 - replay.log[3].seat;
    await showReplay(replay);
    const verdict = root.querySelector(".fair-deal .deal-verdict")!;
    expect(verdict.classList.contains("bad")).toBe(true);
    expect(verdict.textContent).toContain("Move 4 does not check out");
    expect(root.querySelector(".fair-deal .deal-verdict.ok")).toBeNull();
    expect([...root.querySelectorAll(".checks li")].map((li) => li.className)).toEqual([
      "check-commitment ok", "check-deal ok", "check-action bad", "check-end muted",
    ]);
    expect(root.querySelector(".checks .check-action")!.textContent).toContain("seat");
  });

  // Plain http:// to a host other than localhost: no crypto.subtle in the browser.
  it("says the commitment could not be checked in a browser without SHA-256, and claims no success", async () => {
    const replay = fixture("replay-la-casa.json");
    await showReplay(replay, () => makeVerifier(readFileSync(join(process.cwd(), "src/wasm/casa-verify.wasm")), webCryptoSha256(null)));
    const section = root.querySelector(".fair-deal")!;
    expect(section.querySelector(".deal-verdict.ok")).toBeNull();
    expect(section.querySelector(".deal-verdict.unchecked")!.textContent).toContain("Not verified: the commitment could not be checked in this browser");
    expect([...section.querySelectorAll(".checks li")].map((li) => li.className)).toEqual([
      "check-commitment unchecked", "check-deal ok", "check-action ok", "check-end ok",
    ]);
    expect(section.querySelector(".check-commitment")!.textContent).toContain("sha256sum");
  });

  it("says so when the module cannot run", async () => {
    const replay = fixture("replay-casino.json");
    (globalThis as Json).fetch = async () => ({ ok: true, status: 200, text: async () => JSON.stringify(replay) });
    await act(async () => {
      render(<ReplayPage id={replay.table} navigate={() => {}} verifier={() => Promise.reject(new Error("no WebAssembly"))} />, root);
    });
    for (let i = 0; i < 20 && !root.textContent!.includes("Not checked"); i++) {
      await act(async () => {
        await new Promise((r) => setTimeout(r, 10));
      });
    }
    expect(root.querySelector(".fair-deal .deal-verdict")!.textContent).toContain("could not run in this browser (no WebAssembly)");
  });
});
