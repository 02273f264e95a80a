import { describe, expect, it } from "vitest";
import { normaliseCatalogue, parseText } from "../src/catalogue";
import { fixture } from "./helpers";

describe("catalogue", () => {
  it("turns each option schema into a form field", () => {
    const [laCasa, casino] = normaliseCatalogue(fixture("catalogue.json"));
    expect(laCasa.players).toEqual([1, 2, 4]);
    expect(casino.players).toEqual([2, 3, 4]);
    const f = Object.fromEntries(laCasa.fields.map((x) => [x.key, x]));
    expect(f.format.kind).toBe("select");
    expect(f.format.choices.map((c) => c.value)).toContain("domination");
    expect(f.target).toMatchObject({ kind: "number", min: 1, max: 1000 });
    expect(f.election.kind).toBe("boolean");
    expect(f.rounds.testing).toBe(true);
    expect(f.target.testing).toBe(false);
    const q = casino.fields.find((x) => x.key === "questions")!;
    expect(q.kind).toBe("text"); // an object alternative cannot be a list
    expect(parseText(f.deck, "G1, K2 M3")).toEqual(["G1", "K2", "M3"]);
    expect(parseText(q, "default")).toBe("default");
    expect(parseText(q, "true")).toBe(true);
  });
});
