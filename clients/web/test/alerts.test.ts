// SPDX-License-Identifier: AGPL-3.0-or-later
import { beforeEach, describe, expect, it } from "vitest";
import { Alerts, faviconWithCount } from "../src/alerts";
import { makeApp } from "./helpers";

function hide(hidden: boolean) {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
  document.dispatchEvent(new Event("visibilitychange"));
}

beforeEach(() => {
  document.head.innerHTML = '<link rel="icon" href="/favicon.svg">';
  document.title = "La Casa";
  hide(false);
});

describe("alerts while the tab is hidden", () => {
  it("counts a turn in the title and the favicon, and clears when shown again", () => {
    const { app } = makeApp();
    app.receive({ type: "table_state", table: "t1", game: "la-casa", players: 2, status: "playing", seq: 3, seat: 0, seats: [], view: { phase: "play" } });
    hide(true);
    app.receive({ type: "request", table: "t1", seq: 3, seat: 0, legal: [{ type: "play", card: "G5" }], view: { phase: "play" } });
    expect(document.title).toBe("(1) Your turn · La Casa");
    expect(document.querySelector<HTMLLinkElement>("link[rel~='icon']")!.href).toBe(faviconWithCount(1));
    // The same decision sent again (a resync) is not a second call.
    app.receive({ type: "request", table: "t1", seq: 3, seat: 0, legal: [{ type: "play", card: "G5" }], view: { phase: "play" } });
    expect(app.alerts.unread).toBe(1);
    app.receive({ type: "chat", table: "t1", from: "p2", name: "bea", seat: 1, text: "hi", line: 1 });
    expect(document.title).toBe("(2) Your turn, new message · La Casa");
    hide(false);
    expect(document.title).toBe("La Casa");
    expect(document.querySelector<HTMLLinkElement>("link[rel~='icon']")!.getAttribute("href")).toBe("/favicon.svg");
  });

  it("says nothing while the tab is in front, nor for the player's own chat", () => {
    const { app } = makeApp();
    app.state.me = { player_id: "p1", name: "ann" };
    app.receive({ type: "request", table: "t1", seq: 3, seat: 0, legal: [{ type: "play", card: "G5" }] });
    expect(document.title).toBe("La Casa");
    hide(true);
    app.receive({ type: "chat", table: "t1", from: "p1", name: "ann", seat: 0, text: "mine", line: 2 });
    expect(document.title).toBe("La Casa");
  });

  it("draws the count into the favicon", () => {
    expect(decodeURIComponent(faviconWithCount(3))).toContain(">3</text>");
    expect(decodeURIComponent(faviconWithCount(0))).not.toContain("<text");
    const a = new Alerts();
    expect(a.title()).toBe("La Casa");
  });
});
