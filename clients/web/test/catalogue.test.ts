// SPDX-License-Identifier: AGPL-3.0-or-later
import { describe, expect, it } from "vitest";
import { effectiveFormat, fieldApplies, normaliseCatalogue, parseText } from "../src/catalogue";
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
    // The schema also takes an object of texts; the form offers what x-form-enum lists.
    expect(q.kind).toBe("select");
    expect(q.choices.map((c) => c.value)).toEqual([false, "default"]);
    expect(casino.fields.find((x) => x.key === "attack")!.kind).toBe("boolean");
    expect(parseText(f.deck, "G1, K2 M3")).toEqual(["G1", "K2", "M3"]);
    expect(parseText(f.format, "[1]")).toEqual([1]);
  });

  it("shows an option only at the player counts and formats it names", () => {
    const [laCasa, casino] = normaliseCatalogue(fixture("catalogue.json"));
    const partners = casino.fields.find((x) => x.key === "partners")!;
    expect(fieldApplies(partners, 2)).toBe(false);
    expect(fieldApplies(partners, 4)).toBe(true);
    expect(effectiveFormat(laCasa.fields, 1, {})).toBe("solo");
    expect(effectiveFormat(laCasa.fields, 4, {})).toBe("challenges");
    expect(effectiveFormat(laCasa.fields, 2, { format: "domination" })).toBe("domination");
    const soloOnly = laCasa.fields.find((x) => x.key === "challenges")!;
    expect(fieldApplies(soloOnly, 1, "solo")).toBe(true);
    expect(fieldApplies(soloOnly, 4, "challenges")).toBe(false);
  });
});
