// SPDX-License-Identifier: AGPL-3.0-or-later
import { describe, expect, it } from "vitest";
import { cardFace, gameOfCard } from "../src/cards";
import { describeAction, describeEvent } from "../src/words";

describe("card faces", () => {
  it("draws each game's cards with a symbol, a colour class and a name", () => {
    expect(cardFace("G5", "la-casa")).toMatchObject({ rank: "5", symbol: "◎", suit: "guns", name: "5 of Guns" });
    expect(cardFace("MC", "la-casa")).toMatchObject({ suit: "cake", name: "the Mangia-Cake" });
    expect(cardFace("TD", "casino")).toMatchObject({ rank: "10", symbol: "♦", suit: "diamonds", name: "10 of Diamonds" });
    expect(cardFace("EQ", "conference")).toMatchObject({ suit: "earth", name: "Queen of Earth" });
    expect(cardFace("T21", "conference")).toMatchObject({ suit: "trump", rank: "21" });
    expect(cardFace("FOOL", "conference").name).toBe("the Fool");
    expect(cardFace("MAZX", "trophy-case")).toMatchObject({ rank: "∞", suit: "tc-red", name: "∞ of Mazes (red)" });
    expect(cardFace("TOP3", "trophy-case").suit).toBe("tc-blue");
    expect(cardFace("T-LOBSTER", "trophy-case").suit).toBe("trump");
  });

  it("guesses the game of a card id when none is given", () => {
    expect(gameOfCard("K9")).toBe("la-casa");
    expect(gameOfCard("AS")).toBe("casino");
    expect(gameOfCard("W10")).toBe("conference");
    expect(gameOfCard("HIV4")).toBe("trophy-case");
  });
});

describe("words", () => {
  it("says what an action does", () => {
    expect(describeAction({ type: "play", card: "G5" }, "la-casa")).toBe("Play 5 of Guns");
    expect(describeAction({ type: "capture", card: "5H", loose: ["2C", "3D"], builds: ["B1"] }, "casino")).toBe(
      "Capture 2 of Clubs + 3 of Diamonds + build B1 with 5 of Hearts",
    );
    expect(describeAction({ type: "play", card: "GOOD", call: "ours" }, "conference")).toContain("ours");
    expect(describeAction({ type: "set_aside", cards: [] }, "la-casa")).toBe("Keep every card");
    expect(describeAction({ type: "brand_new", x: 1 }, "la-casa")).toBe("Brand new (x 1)");
  });

  it("tells events in words with seat names", () => {
    const who = (s: number) => ["ann", "bob"][s];
    expect(describeEvent({ type: "play", seat: 1, card: "K7", from: "hand" }, "la-casa", who)).toBe("bob played 7 of Knives.");
    expect(describeEvent({ type: "trick", number: 2, winner: 0 }, "la-casa", who)).toBe("ann won trick 2.");
    expect(describeEvent({ type: "hand", seat: 0, cards: ["G1"] }, "la-casa", who)).toBeNull();
  });
});
