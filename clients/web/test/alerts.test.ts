// SPDX-License-Identifier: AGPL-3.0-or-later
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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
    app.receive({ type: "table_state", table: "t1", game: "la-casa", players: 2, status: "playing", seq: 3, seat: 0, seats: [], teams: [], options: {}, private: false, move_timeout_seconds: 0, view: { phase: "play" } });
    hide(true);
    app.receive({ type: "request", table: "t1", seq: 3, seat: 0, legal: [{ type: "play", card: "G5" }], view: { phase: "play" } });
    expect(document.title).toBe("(1) Your turn · La Casa");
    expect(document.querySelector<HTMLLinkElement>("link[rel~='icon']")!.href).toBe(faviconWithCount(1));
    // The same decision sent again (a resync) is not a second call.
    app.receive({ type: "request", table: "t1", seq: 3, seat: 0, legal: [{ type: "play", card: "G5" }], view: { phase: "play" } });
    expect(app.alerts.unread).toBe(1);
    app.receive({ type: "chat", table: "t1", from: "p2", name: "bea", seat: 1, team: false, text: "hi", line: 1 });
    expect(document.title).toBe("(2) Your turn, new message · La Casa");
    hide(false);
    expect(document.title).toBe("La Casa");
    expect(document.querySelector<HTMLLinkElement>("link[rel~='icon']")!.getAttribute("href")).toBe("/favicon.svg");
  });

  it("counts a game of the player's that ended, once, and an invitation, once however often it is sent", () => {
    const { app } = makeApp();
    app.receive({ type: "table_state", table: "t1", game: "la-casa", players: 2, status: "playing", seq: 3, seat: 0, seats: [], teams: [], options: {}, private: false, move_timeout_seconds: 0, view: { phase: "play" } });
    hide(true);
    app.receive({ type: "game_over", table: "t1", seq: 9, scores: [3, 1], winners: [0] });
    expect(document.title).toBe("(1) Game over · La Casa");
    app.receive({ type: "game_over", table: "t1", seq: 9, scores: [3, 1], winners: [0] });
    expect(app.alerts.unread).toBe(1);
    const invitation = { type: "invitation" as const, invitation: "i1", event: "e1", from: { player_id: "p2", name: "bea" }, game: "casino", players: 2, boards: 2, expires_in_seconds: 600 };
    app.receive(invitation);
    app.receive(invitation); // sent again on every hello while it waits
    expect(app.alerts.unread).toBe(2);
    expect(document.title).toBe("(2) Game over, Invitation · La Casa");
    hide(false);
    expect(document.title).toBe("La Casa");
  });

  it("says nothing of a game the player only watched", () => {
    const { app } = makeApp();
    app.receive({ type: "table_state", table: "t2", game: "la-casa", players: 2, status: "playing", seq: 3, seat: -1, seats: [], teams: [], options: {}, private: false, move_timeout_seconds: 0, view: { phase: "play" } });
    hide(true);
    app.receive({ type: "game_over", table: "t2", seq: 9, scores: [3, 1], winners: [0] });
    expect(app.alerts.unread).toBe(0);
  });

  it("says nothing while the tab is in front, nor for the player's own chat", () => {
    const { app } = makeApp();
    app.state.me = { player_id: "p1", name: "ann" };
    app.receive({ type: "request", table: "t1", seq: 3, seat: 0, legal: [{ type: "play", card: "G5" }] });
    expect(document.title).toBe("La Casa");
    hide(true);
    app.receive({ type: "chat", table: "t1", from: "p1", name: "ann", seat: 0, team: false, text: "mine", line: 2 });
    expect(document.title).toBe("La Casa");
  });

  it("draws the count into the favicon", () => {
    expect(decodeURIComponent(faviconWithCount(3))).toContain(">3</text>");
    expect(decodeURIComponent(faviconWithCount(0))).not.toContain("<text");
    const a = new Alerts();
    expect(a.title()).toBe("La Casa");
  });
});

describe("sound and system notifications", () => {
  // The browser's APIs, recorded: what the page asked them to do.
  const notes: number[] = [];
  const shown: { title: string; body?: string; tag?: string }[] = [];
  let permission: NotificationPermission = "default";
  let asked = 0;

  beforeEach(() => {
    notes.length = 0;
    shown.length = 0;
    permission = "default";
    asked = 0;
    localStorage.clear();
    class FakeNotification {
      static get permission() {
        return permission;
      }
      static async requestPermission() {
        asked++;
        permission = "granted";
        return permission;
      }
      onclick: (() => void) | null = null;
      constructor(title: string, options: NotificationOptions = {}) {
        shown.push({ title, body: options.body, tag: options.tag });
      }
      close() {}
    }
    class FakeAudioContext {
      currentTime = 0;
      destination = {};
      createOscillator() {
        const osc = { type: "", frequency: { value: 0 }, connect: (g: unknown) => g, start: () => notes.push(osc.frequency.value), stop: () => {} };
        return osc;
      }
      createGain() {
        const gain = { gain: { setValueAtTime: () => {}, exponentialRampToValueAtTime: () => {} }, connect: (d: unknown) => d };
        return gain;
      }
    }
    vi.stubGlobal("Notification", FakeNotification);
    vi.stubGlobal("AudioContext", FakeAudioContext);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("stays silent until the player turns them on", () => {
    const a = new Alerts();
    hide(true);
    a.notice("turn", "Your turn at La Casa");
    expect(notes).toEqual([]);
    expect(shown).toEqual([]);
    expect(a.unread).toBe(1);
  });

  it("plays the turn's tones and shows a notification once the player allowed it", async () => {
    const a = new Alerts();
    a.sound = true; // the click that turns it on plays a sample
    expect(notes).toEqual([660, 880]);
    await a.setNotify(true);
    expect(asked).toBe(1);
    expect(a.notify).toBe(true);
    notes.length = 0;
    hide(true);
    a.notice("turn", "Your turn at La Casa");
    expect(notes).toEqual([660, 880]);
    expect(shown).toEqual([{ title: "Your turn — La Casa", body: "Your turn at La Casa", tag: "casa-turn" }]);
    a.notice("chat", "bea: hi");
    expect(notes).toEqual([660, 880, 520]);
    expect(shown.map((n) => n.tag)).toEqual(["casa-turn", "casa-chat"]);
  });

  it("has a notification, a tag and tones of its own for a game's end and an invitation", async () => {
    const a = new Alerts();
    await a.setNotify(true);
    a.sound = true;
    notes.length = 0;
    hide(true);
    a.notice("over", "La Casa, table t1: the game is over");
    a.notice("invite", "bea invites you to Casino");
    expect(shown).toEqual([
      { title: "Game over — La Casa", body: "La Casa, table t1: the game is over", tag: "casa-over" },
      { title: "Invitation — La Casa", body: "bea invites you to Casino", tag: "casa-invite" },
    ]);
    expect(notes).toEqual([880, 660, 440, 520, 780]);
  });

  it("shows no notification where the browser refused, and asks only once", async () => {
    permission = "denied";
    const a = new Alerts();
    await a.setNotify(true);
    expect(asked).toBe(0);
    expect(a.notifyBlocked).toBe(true);
    hide(true);
    a.notice("turn", "Your turn");
    expect(shown).toEqual([]);
  });

  it("says nothing while the tab is in front", async () => {
    const a = new Alerts();
    a.sound = true;
    await a.setNotify(true);
    notes.length = 0;
    hide(false);
    a.notice("turn", "Your turn");
    expect(notes).toEqual([]);
    expect(shown).toEqual([]);
  });
});
