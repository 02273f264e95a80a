// SPDX-License-Identifier: AGPL-3.0-or-later
// The table page says what each decision does, and The Club's set-aside is chosen by
// tapping cards.
import { render } from "preact";
import { act } from "preact/test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { TablePage } from "../src/ui/Table";
import { describeEvent, type Json } from "../src/words";
import { makeApp } from "./helpers";

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
});

function seated(view: Json, legal: Json[], teams?: number[][]) {
  const { app, conn } = makeApp();
  const players = view.hand_sizes.length;
  const seats = Array.from({ length: players }, (_, i) =>
    i === 0 ? { seat: 0, kind: "player" as const, name: "ann", connected: true } : { seat: i, kind: "bot" as const, name: "robot", bot: "robot" as const },
  );
  app.receive({ type: "table_state", table: "t1", game: view.game, players, status: "playing", seq: 4, seat: 0, seats, teams: teams ?? seats.map((s) => [s.seat]), options: {}, private: false, move_timeout_seconds: 0, view });
  app.receive({ type: "request", table: "t1", seq: 4, seat: 0, legal, view });
  act(() => render(<TablePage app={app} id="t1" />, root));
  return { app, conn };
}

const laCasa = (phase: string, extra: Json = {}) => ({
  game: "la-casa", seat: 0, phase, to_act: [0], hand: ["G5", "K2", "M9"], hand_sizes: [3, 3, 3, 3], scores: [0, 0], trick: [], ...extra,
});

describe("the decision in words", () => {
  it("a Bandits steal says it steals, not that lit cards can be played", () => {
    seated(laCasa("steal", { trick: [{ seat: 1, card: "G7" }] }), [{ type: "steal", card: "G7" }, { type: "no_steal" }]);
    const words = [...root.querySelectorAll(".choices .decision li")].map((l) => l.textContent);
    expect(words).toEqual(["Steal a card from the trick (Bandits)", "Steal nothing (Bandits)"]);
    expect(root.querySelector(".choices")!.textContent).not.toContain("can be played");
    expect(root.querySelector(".choices")!.getAttribute("data-types")).toBe("steal no_steal");
  });

  it("Pass the Buck says the card goes to the left", () => {
    seated(laCasa("pass_card"), [{ type: "pass_card", card: "G5" }, { type: "pass_card", card: "K2" }]);
    expect(root.querySelector(".choices .decision")!.textContent).toBe("Give a card to your left (Pass the Buck)");
  });

  it("The Club's set-aside is chosen by tapping cards, then confirmed", () => {
    const legal = [
      { type: "set_aside", cards: [] },
      { type: "set_aside", cards: ["G5"] },
      { type: "set_aside", cards: ["K2"] },
      { type: "set_aside", cards: ["M9"] },
      { type: "set_aside", cards: ["G5", "K2"] },
      { type: "set_aside", cards: ["G5", "M9"] },
      { type: "set_aside", cards: ["K2", "M9"] },
    ];
    const { conn } = seated(laCasa("set_aside"), legal);
    expect(root.querySelector(".choices select")).toBeNull();
    expect(root.querySelector(".choices .decision")!.textContent).toBe("Set aside up to two cards (The Club)");
    const confirm = () => root.querySelector(".choices .buttons button.primary") as HTMLButtonElement;
    expect(confirm().textContent).toBe("Keep every card");
    const tap = (c: string) => act(() => (root.querySelector(`.hand button[data-card="${c}"]`) as HTMLButtonElement).click());
    tap("M9");
    tap("G5");
    expect(root.querySelector('.hand button[data-card="G5"]')!.getAttribute("aria-pressed")).toBe("true");
    expect(confirm().textContent).toBe("Set aside 5 of Guns, 9 of Masks");
    tap("K2");
    expect(confirm().disabled).toBe(true);
    expect(confirm().textContent).toBe("Choose at most 2 cards");
    tap("K2");
    act(() => confirm().click());
    expect(conn.sent.at(-1)).toMatchObject({ type: "action", seq: 4, action: { type: "set_aside", cards: ["G5", "M9"] } });
  });

  it("a Casino capture names the build's value", () => {
    const view = {
      game: "casino", seat: 0, phase: "play", to_act: [0], turn: 0, hand: ["8H"], hand_sizes: [1, 1], scores: [0, 0],
      table: { loose: [], builds: [{ id: "B1", cards: ["5D", "3C"], value: 8, owner: 1 }] }, captures: [[], []], teams: [[0], [1]],
    };
    seated(view, [{ type: "capture", card: "8H", loose: [], builds: ["B1"] }, { type: "trail", card: "8H" }]);
    expect([...root.querySelectorAll(".choices .decision li")].map((l) => l.textContent)).toEqual(["Capture with a card from your hand", "Trail a card onto the table"]);
    act(() => (root.querySelector('.hand button[data-card="8H"]') as HTMLButtonElement).click());
    expect(root.textContent).toContain("Capture build B1 (8) with 8 of Hearts");
  });

  it("no team-only chat at a table without partners; there is one with partners", () => {
    seated(laCasa("play"), [{ type: "play", card: "G5" }]);
    expect(root.querySelector(".chat")!.textContent).not.toContain("team only");
    seated(laCasa("play"), [{ type: "play", card: "G5" }], [[0, 2], [1, 3]]);
    expect(root.querySelector(".chat")!.textContent).toContain("team only");
  });

  it("counts in words: 1 card, 1 point, bid 1 trick", () => {
    seated(laCasa("bidding", { hand: ["G5"], hand_sizes: [1, 1], scores: [1, 2] }), [{ type: "bid", tricks: 1 }, { type: "pass" }]);
    expect(root.querySelectorAll(".seat")[0].textContent).toContain("1 card");
    expect(root.querySelectorAll(".seat")[0].textContent).not.toContain("1 cards");
    expect(root.querySelectorAll(".seat")[0].textContent).toContain("1 point");
    expect(root.querySelectorAll(".seat")[0].textContent).not.toContain("1 points");
    expect(root.textContent).toContain("Bid 1 trick");
    expect(root.textContent).not.toContain("Bid 1 tricks");
  });

  it("Casino's round summary gives the round's points", () => {
    const e = { type: "round_end", round: 2, scores: [8, 14], sides: [{ seats: [0], points: 3 }, { seats: [1], points: 8 }] };
    expect(describeEvent(e, "casino", (s) => `seat ${s}`)).toBe("Round 2 over: 3 – 8 points this round, 8 – 14 in all.");
  });
});

describe("the score sheet", () => {
  it("numbers Conference's hands", async () => {
    const { ScoreSheet } = await import("../src/ui/Table");
    const rows = [{ label: "Hand", scores: [0, 41] }, { label: "Hand", scores: [30, 41] }, { label: "Hand", scores: [30, 90] }];
    act(() => render(<ScoreSheet rows={rows} name={(s) => `seat ${s}`} />, root));
    expect([...root.querySelectorAll("tbody td:first-child")].map((td) => td.textContent)).toEqual(["Hand 1", "Hand 2", "Hand 3"]);
  });
});
