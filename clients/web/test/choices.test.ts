// SPDX-License-Identifier: AGPL-3.0-or-later
import { describe, expect, it } from "vitest";
import { buildChoices, SELECT_THRESHOLD } from "../src/choices";
import { fixture } from "./helpers";

describe("buildChoices", () => {
  it("lights exactly the cards of the legal plays", () => {
    const req = fixture("la-casa-4p-request.json");
    const c = buildChoices(req.legal);
    expect([...c.byCard.keys()]).toEqual(["M3"]);
    expect(c.groups).toEqual([]);
  });

  it("turns many bids into one selection and pass into a button", () => {
    const req = fixture("la-casa-2p-bidding.json");
    const c = buildChoices(req.legal);
    expect(c.byCard.size).toBe(0);
    const bid = c.groups.find((g) => g.type === "bid")!;
    const pass = c.groups.find((g) => g.type === "pass")!;
    expect(bid.actions.length).toBe(15);
    expect(bid.asSelect).toBe(true);
    expect(pass.asSelect).toBe(false);
    expect(pass.actions).toEqual([{ type: "pass" }]);
  });

  it("keeps several actions of one card together (Casino capture, build, trail)", () => {
    const legal = [
      { type: "capture", card: "8H", loose: ["8D"], builds: [] },
      { type: "capture", card: "8H", loose: ["8D", "8C"], builds: [] },
      { type: "build", card: "8H", loose: ["2H"] },
      { type: "trail", card: "8H" },
      { type: "trail", card: "KC" },
    ];
    const c = buildChoices(legal);
    expect(c.byCard.get("8H")!.length).toBe(4);
    expect(c.byCard.get("KC")).toEqual([{ type: "trail", card: "KC" }]);
  });

  it("offers card-less actions as groups and card sets as taps (set aside, ask)", () => {
    const legal = [
      { type: "set_aside", cards: [] },
      { type: "set_aside", cards: ["G5"] },
      { type: "ask", card: "7S", target: 1 },
      { type: "done_asking" },
    ];
    const c = buildChoices(legal);
    expect(c.byCard.size).toBe(0);
    expect(c.groups.map((g) => g.type)).toEqual(["ask", "done_asking"]);
    expect(c.multi.map((a) => a.cards)).toEqual([[], ["G5"]]);
    expect(SELECT_THRESHOLD).toBeGreaterThan(2);
  });

  it("has nothing to click without a request", () => {
    const c = buildChoices(undefined);
    expect(c.byCard.size).toBe(0);
    expect(c.groups.length).toBe(0);
  });
});
