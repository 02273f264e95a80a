// SPDX-License-Identifier: AGPL-3.0-or-later
// The page's message types come from protocol/schemas (scripts/gen-types.mjs): these
// tests check that the generated file follows the schemas, and that a message type
// the server adds to server.json fails the page's type check until the page
// handles it.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const web = join(__dirname, "..");
const schemas = join(web, "..", "..", "protocol", "schemas");
const generator = join(web, "scripts", "gen-types.mjs");

/** The `type` of each message file a union (server.json, client.json) lists. */
function typesOf(union: string): string[] {
  const refs: { $ref: string }[] = JSON.parse(readFileSync(join(schemas, union), "utf8")).oneOf;
  return refs.map(({ $ref }) => JSON.parse(readFileSync(join(schemas, $ref), "utf8")).properties.type.const);
}

/** The members of `export type NAME = | A | B ...;` in the generated text. */
function unionMembers(text: string, name: string): string[] {
  const m = text.match(new RegExp(`export type ${name} =([^;]*);`));
  return m ? m[1].split("|").map((s) => s.trim()).filter(Boolean) : [];
}

describe("the generated protocol types", () => {
  it("are up to date with protocol/schemas", () => {
    // Fails when a schema changed and src/protocol.gen.ts was not written again.
    const run = spawnSync(process.execPath, [generator, "--check"], { cwd: web, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("have one union member per message file of server.json and client.json", () => {
    const text = readFileSync(join(web, "src", "protocol.gen.ts"), "utf8");
    const pascal = (t: string) => t.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
    const server = typesOf("server.json");
    const client = typesOf("client.json");
    expect(server.length).toBeGreaterThan(20);
    expect(unionMembers(text, "ServerMessage").sort()).toEqual(server.map((t) => "Server" + pascal(t)).sort());
    expect(unionMembers(text, "ClientMessage").sort()).toEqual(client.map((t) => "Client" + pascal(t)).sort());
    // Every message file is in its union: a message the server sends is typed.
    expect(readdirSync(join(schemas, "server")).length).toBe(server.length);
    expect(readdirSync(join(schemas, "client")).length).toBe(client.length);
  });

  it("make the page's type check fail on a server message type it does not handle", () => {
    // A copy of the schemas with one more server message, the page's sources, and
    // tsc: reduce()'s exhaustive switch must refuse it.
    const dir = mkdtempSync(join(tmpdir(), "casa-web-types-"));
    try {
      const copy = join(dir, "schemas");
      cpSync(schemas, copy, { recursive: true });
      writeFileSync(join(copy, "server", "seat_swapped.json"), JSON.stringify({
        $id: "server/seat_swapped.json", title: "Two seats swapped", type: "object",
        required: ["type", "table"], additionalProperties: false,
        properties: { type: { const: "seat_swapped" }, table: { $ref: "../common.json#/definitions/table_id" } },
      }));
      const union = JSON.parse(readFileSync(join(copy, "server.json"), "utf8"));
      union.oneOf.push({ $ref: "server/seat_swapped.json" });
      writeFileSync(join(copy, "server.json"), JSON.stringify(union));

      const page = join(dir, "web");
      cpSync(join(web, "src"), join(page, "src"), { recursive: true });
      cpSync(join(web, "tsconfig.json"), join(page, "tsconfig.json"));
      symlinkSync(join(web, "node_modules"), join(page, "node_modules"), "dir");
      execFileSync(process.execPath, [generator, "--schemas", copy, "--out", join(page, "src", "protocol.gen.ts")]);
      writeFileSync(join(page, "tsconfig.json"), JSON.stringify({ ...JSON.parse(readFileSync(join(web, "tsconfig.json"), "utf8")), include: ["src"] }));

      const tsc = spawnSync(process.execPath, [join(web, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", page], { encoding: "utf8" });
      expect(tsc.status).not.toBe(0);
      expect(tsc.stdout).toMatch(/src\/store\.ts\(\d+,\d+\): error TS2322: Type 'ServerSeatSwapped' is not assignable to type 'never'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
