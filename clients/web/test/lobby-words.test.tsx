// SPDX-License-Identifier: AGPL-3.0-or-later
// The create form speaks players' words: no rule ids or accepted spellings in the
// visible help (they stay under "Rules reference"), and a default listed once.
import { render } from "preact";
import { act } from "preact/test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { Lobby } from "../src/ui/Lobby";
import type { Json } from "../src/words";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeApp } from "./helpers";

/** The catalogue as the server builds it: the real option schemas of protocol/schemas/options. */
function realCatalogue(): Json {
  const dir = join(__dirname, "../../../protocol/schemas/options");
  const players: Record<string, number[]> = { "la-casa": [1, 2, 4], casino: [2, 3, 4] };
  return { games: Object.entries(players).map(([name, p]) => ({ name, players: p, options: JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) })) };
}

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
  localStorage.setItem("casa.name", "ann");
});
const settle = () => new Promise((r) => setTimeout(r, 100));

/** The text a player sees: everything but closed "Rules reference" and testing sections. */
function visibleText(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  for (const d of copy.querySelectorAll("details.rules-ref, details.testing")) d.remove();
  return copy.textContent ?? "";
}

async function form(game: string) {
  const catalogue = realCatalogue();
  (globalThis as Json).fetch = async () => ({ ok: true, status: 200, json: async () => catalogue });
  const { app } = makeApp();
  await act(async () => {
    render(<Lobby app={app} />, root);
    await settle();
  });
  for (let i = 0; i < 20 && !root.querySelector("#game"); i++) await act(async () => { await settle(); });
  if (!root.querySelector("#game")) throw new Error(root.innerHTML.slice(0, 500));
  const select = root.querySelector("#game") as HTMLSelectElement;
  await act(async () => {
    select.value = game;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    await settle();
  });
  return root.querySelector(".create-form")!;
}

describe("the create form in players' words", () => {
  it("shows no rule ids or developer text for La Casa and Casino", async () => {
    for (const game of ["la-casa", "casino"]) {
      const f = await form(game);
      const text = visibleText(f);
      expect(text).not.toMatch(/\b(LC|CA|CO|TC)-\d/);
      expect(text).not.toContain('"off" or null');
      // The ids are still there, one click away.
      expect(f.querySelector("details.rules-ref")).not.toBeNull();
    }
  });

  it("lists the default format once", async () => {
    const f = await form("la-casa");
    const labels = [...(f.querySelector("#opt-format") as HTMLSelectElement).options].map((o) => o.textContent);
    expect(labels.filter((l) => /challenges/.test(l ?? "")).length).toBe(1);
    expect(labels).toContain("challenges (usual)");
    expect(labels.some((l) => /^default/.test(l ?? ""))).toBe(false);
  });
});
