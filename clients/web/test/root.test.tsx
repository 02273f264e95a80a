// SPDX-License-Identifier: AGPL-3.0-or-later
import { render } from "preact";
import { beforeEach, describe, expect, it } from "vitest";
import { Root } from "../src/ui/Root";
import { fixture, makeApp } from "./helpers";

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
  localStorage.setItem("casa.name", "bea");
});

const settle = () => new Promise((r) => setTimeout(r, 150));

describe("the page frame", () => {
  it("shows what arrived between the first paint and its subscription", async () => {
    history.replaceState(null, "", "/join/INV123");
    const { app } = makeApp();
    // Rendered without act(): effects (the subscription) wait for after the paint,
    // as in a browser.
    render(<Root app={app} />, root);
    expect(root.textContent).toContain("Opening the invitation");
    // The invitation's answer lands before the effect has run: its change notice
    // reaches no listener.
    const st = fixture("la-casa-4p-state.json");
    app.receive({ ...st, invite: "INV123" });
    app.changed();
    await settle();
    expect(root.textContent).not.toContain("Opening the invitation");
    expect(root.querySelector(".seat")).not.toBeNull();
  });

  it("re-renders on every later change", async () => {
    history.replaceState(null, "", "/join/INV456");
    const { app } = makeApp();
    render(<Root app={app} />, root);
    await settle();
    expect(root.textContent).toContain("Opening the invitation");
    const st = fixture("la-casa-4p-state.json");
    app.receive({ ...st, invite: "INV456" });
    await settle();
    expect(root.querySelector(".seat")).not.toBeNull();
  });
});

describe("the footer", () => {
  it("names the server's release and commit from /api/version, and the licence", async () => {
    const { Footer } = await import("../src/ui/Root");
    const real = globalThis.fetch;
    const asked: string[] = [];
    globalThis.fetch = (async (url: string) => {
      asked.push(String(url));
      return new Response(JSON.stringify({ version: "1.2.3", commit: "abc1234", protocol: 1 }), {
        headers: { "Content-Type": "application/json" },
      });
    }) as typeof fetch;
    try {
      render(<Footer />, root);
      await settle();
      expect(asked).toEqual(["/api/version"]);
      expect(root.textContent).toContain("La Casa table server 1.2.3 (abc1234)");
      expect(root.textContent).toContain("AGPL-3.0-or-later");
      expect(root.querySelector('a[href="/licenses.txt"]')).not.toBeNull();
    } finally {
      globalThis.fetch = real;
    }
  });
});
