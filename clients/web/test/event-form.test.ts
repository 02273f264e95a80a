// SPDX-License-Identifier: AGPL-3.0-or-later
import { describe, expect, it } from "vitest";
import { eventMessage, splits } from "../src/ui/EventForm";

describe("the duplicate event form", () => {
  it("offers every split of the seats into equal sides of two or more", () => {
    expect(splits(2)).toEqual([[2, 1]]);
    expect(splits(4)).toEqual([[4, 1], [2, 2]]);
    expect(splits(3)).toEqual([[3, 1]]);
  });

  it("writes create_event with bots, the creator and players named by id", () => {
    const m = eventMessage("la-casa", 4, 3, [
      { name: "Us ", members: [{ kind: "me", id: "" }, { kind: "player", id: " p42 " }] },
      { name: "", members: [{ kind: "robot", id: "" }, { kind: "strong", id: "" }] },
    ], "p1");
    expect(m).toEqual({
      type: "create_event", game: "la-casa", players: 4, boards: 3,
      sides: [
        { name: "Us", members: [{ player_id: "p1" }, { player_id: "p42" }] },
        { members: [{ bot: "robot" }, { bot: "strong" }] },
      ],
    });
  });
});
