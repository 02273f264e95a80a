// SPDX-License-Identifier: AGPL-3.0-or-later
// What a screen reader is told at a table: its turn (an assertive status) and each
// card played (a polite live region holding only the new lines of the log).
import { render } from "preact";
import { act } from "preact/test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { setLang } from "../src/i18n";
import { TablePage } from "../src/ui/Table";
import { fixture, makeApp } from "./helpers";

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
});

describe("live regions of the table page", () => {
  it("announce the player's turn and every card played, once", () => {
    const st = fixture("la-casa-4p-state.json");
    const req = fixture("la-casa-4p-request.json");
    const { app } = makeApp();
    app.receive(st);
    const show = () => act(() => render(<TablePage app={app} id={st.table} />, root));
    show();
    const turn = () => root.querySelector('[aria-live="assertive"]')!.textContent;
    const played = () => root.querySelector('.announce[aria-live="polite"]')!.textContent;
    expect(turn()).toBe("");
    // The visible log is not itself live (a restored history would be read out whole).
    expect(root.querySelector(".log [aria-live]")).toBeNull();

    app.receive({ type: "event", table: st.table, seq: 1, event: { type: "play", seat: 1, card: "G4" } });
    show();
    expect(played()).toBe("robot (seat 2) played 4 of Guns.");

    app.receive({ ...req, table: st.table });
    show();
    expect(turn()).toBe("Your turn: Play a card.");

    (root.querySelector('button[data-card="M3"]') as HTMLButtonElement).click();
    show();
    expect(turn()).toBe("");
    app.receive({ type: "event", table: st.table, seq: 4, event: { type: "play", seat: 0, card: "M3" } });
    app.receive({ type: "event", table: st.table, seq: 5, event: { type: "play", seat: 1, card: "K5" } });
    show();
    // Both new lines, not the older one.
    expect(played()).toBe("ann (you) played 3 of Masks. robot (seat 2) played 5 of Knives.");
    // A re-render with nothing new keeps the text (nothing is read out again).
    show();
    expect(played()).toBe("ann (you) played 3 of Masks. robot (seat 2) played 5 of Knives.");
  });
});

describe("the announcer in Italian", () => {
  it("reads the new line from the catalogue, bots of one name told apart by seat", () => {
    setLang("it", false);
    try {
      const st = fixture("la-casa-4p-state.json");
      const { app } = makeApp();
      app.receive(st);
      const show = () => act(() => render(<TablePage app={app} id={st.table} />, root));
      show();
      app.receive({ type: "event", table: st.table, seq: 1, event: { type: "play", seat: 1, card: "G4" } });
      show();
      expect(root.querySelector('.announce[aria-live="polite"]')!.textContent).toBe("robot (posto 2) ha giocato 4 di Pistole.");
    } finally {
      render(null, root);
      setLang("en", false);
    }
  });
});

describe("counts in the log", () => {
  it("are singular for one", async () => {
    const { describeEvent } = await import("../src/words");
    expect(describeEvent({ type: "commit", count: 1 }, "la-casa", () => "")).toBe("1 card committed.");
    expect(describeEvent({ type: "commit", count: 3 }, "la-casa", () => "")).toBe("3 cards committed.");
    setLang("it", false);
    try {
      expect(describeEvent({ type: "commit", count: 1 }, "la-casa", () => "")).toBe("1 carta impegnata.");
      expect(describeEvent({ type: "commit", count: 3 }, "la-casa", () => "")).toBe("3 carte impegnate.");
    } finally {
      setLang("en", false);
    }
  });
});
