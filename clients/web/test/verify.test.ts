// SPDX-License-Identifier: AGPL-3.0-or-later
// The replay checks of `casa verify`, compiled to WebAssembly (verify/, built by
// scripts/build-wasm.sh), run here from the real .wasm on real replays of every
// engine (test/fixtures/replay-*.json, written by scripts/replay-fixtures.mjs from
// games played to their end on a casa-server): an honest replay verifies, and the
// tampering cases of the C++ test (tests/server/deals_test.cpp) fail at the right check.
// The module hashes nothing: the commitment's SHA-256 comes from outside it, here
// from Node.js (node:crypto's createHash, and its WebCrypto as the page uses).
import { createHash, webcrypto } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { describeVerdict, makeVerifier, webCryptoSha256, type Verdict, type Verifier } from "../src/verify";
import type { Json } from "../src/words";

const wasm = () => readFileSync(join(process.cwd(), "src/wasm/casa-verify.wasm"));
let verifier: Verifier;
beforeAll(async () => {
  verifier = await makeVerifier(wasm(), webCryptoSha256(webcrypto.subtle as SubtleCrypto));
});

const fixtureText = (name: string): string => readFileSync(join(process.cwd(), `test/fixtures/replay-${name}.json`), "utf8");
// Parsed, for tampering: only la-casa's 2-player states hold no number beyond 2^53.
const fixture = (name: string): Json => JSON.parse(fixtureText(name));
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
// The module's verdict with the digest of the text it names, computed by node:crypto.
const checkText = (text: string, noted?: string): Verdict => verifier.check(text, sha256(verifier.commitmentInput(text)), noted);
const check = (replay: Json, noted?: string): Verdict => checkText(JSON.stringify(replay), noted);

describe("the WebAssembly replay checks", () => {
  for (const game of ["la-casa", "la-casa-solo", "casino", "conference", "trophy-case"]) {
    it(`verifies an honest ${game} game: commitment, deal, every move, the end`, async () => {
      const text = fixtureText(game);
      const replay = JSON.parse(text);
      expect(replay.log.length).toBeGreaterThan(4);
      expect(verifier.commitmentInput(text)).toBe(`${replay.deal.salt}:${replay.deal.seed}`);
      // As the page does: the text from the module, its SHA-256 from WebCrypto.
      const v = await verifier.verify(text, replay.deal_commitment.hash);
      expect(checkText(text, replay.deal_commitment.hash)).toEqual(v);
      expect(v).toEqual({
        verified: true, game: replay.game, seed: replay.deal.seed, commitment: replay.deal_commitment.hash,
        actions_checked: replay.log.length,
      });
      expect(describeVerdict(v)).toContain(`all ${replay.log.length} moves`);
    });
  }

  // Some states hold 64-bit numbers (Solo's deal_seed), which a JavaScript number
  // cannot: the page hands the module the server's text, never JSON.stringify's.
  it("needs the replay's text as the server sent it", () => {
    const text = fixtureText("la-casa-solo");
    expect(checkText(text).verified).toBe(true);
    expect(checkText(JSON.stringify(JSON.parse(text)))).toMatchObject({ verified: false, check: "deal" });
  });

  const honest = fixture("la-casa");
  const n = honest.log.length;
  const copy = (): Json => structuredClone(honest);

  it("fails a move changed for another of the same seat, at that move", () => {
    const tampered = copy();
    const k = Math.floor(n / 2);
    const seat = honest.log[k].seat;
    const other = honest.log.find((e: Json, j: number) => j !== k && e.seat === seat && JSON.stringify(e.action) !== JSON.stringify(honest.log[k].action));
    tampered.log[k].action = other.action;
    const v = check(tampered);
    expect(v).toMatchObject({ verified: false, check: "action", action: k + 1, actions_checked: k });
    expect(v.why).toMatch(new RegExp(`^action ${k + 1}: `));
    expect(describeVerdict(v)).toContain(`Move ${k + 1} does not check out`);
  });

  it("fails a move given to a seat that was not to act", () => {
    const tampered = copy();
    tampered.log[0].seat = 1 - honest.log[0].seat;
    expect(check(tampered)).toMatchObject({ verified: false, check: "action", action: 1, actions_checked: 0 });
    expect(check(tampered).why).toContain("was not to act");
  });

  it("fails a dropped move: the last one, or one in the middle", () => {
    const last = copy();
    last.log.pop();
    expect(check(last)).toMatchObject({ verified: false, check: "end", actions_checked: n - 1 });
    expect(check(last).why).toBe("the log ends before the game is over");
    const middle = copy();
    middle.log.splice(2, 1);
    expect(check(middle)).toMatchObject({ verified: false, check: "action", action: 3, actions_checked: 2 });
  });

  it("fails another seed, and another seed with a commitment made to fit it", () => {
    const seed = (BigInt(honest.deal.seed) + 1n).toString();
    const tampered = copy();
    tampered.seed = seed;
    tampered.deal.seed = seed;
    expect(check(tampered)).toMatchObject({ verified: false, check: "commitment" });
    expect(check(tampered).why).toMatch(/^commitment mismatch/);
    // The server rewrites the commitment too: the hash the player noted catches it...
    tampered.deal_commitment.hash = sha256(`${honest.deal.salt}:${seed}`);
    expect(check(tampered, honest.deal_commitment.hash).why).toContain("you noted");
    // ...and without it, the logged deal is not the one that seed gives.
    expect(check(tampered)).toMatchObject({ verified: false, check: "deal", actions_checked: 0 });
    expect(check(tampered).why).toMatch(/^the deal differs from the seed's/);
  });

  it("fails another salt and a commitment that does not match", () => {
    const salt = copy();
    salt.deal.salt = (honest.deal.salt[0] === "0" ? "1" : "0") + honest.deal.salt.slice(1);
    expect(check(salt)).toMatchObject({ verified: false, check: "commitment" });
    const hash = copy();
    hash.deal_commitment.hash = honest.deal_commitment.hash.replace(/^./, (c: string) => (c === "a" ? "b" : "a"));
    expect(check(hash)).toMatchObject({ verified: false, check: "commitment" });
  });

  it("fails a stacked deck before the first move", () => {
    const tampered = copy();
    const hands = tampered.initial_state.hands;
    [hands[0][0], hands[1][0]] = [hands[1][0], hands[0][0]];
    expect(check(tampered)).toMatchObject({ verified: false, check: "deal", actions_checked: 0 });
  });

  it("fails changed scores and winners after every move checked out", () => {
    const scores = copy();
    scores.scores[0] += 1;
    expect(check(scores)).toMatchObject({ verified: false, check: "end", actions_checked: n });
    expect(check(scores).why).toMatch(/^the scores /);
    const winners = copy();
    winners.winners = honest.winners.length === 1 ? [1 - honest.winners[0]] : [0];
    expect(check(winners)).toMatchObject({ verified: false, check: "end" });
  });

  it("answers malformed input with a failed check, never a crash", () => {
    expect(verifier.commitmentInput("not json")).toBe("");
    expect(verifier.check("not json", undefined)).toMatchObject({ verified: false, check: "replay" });
    expect(verifier.check("[1,2]", undefined)).toMatchObject({ verified: false, check: "replay" });
    const badSeq = copy();
    badSeq.log[0].seq = "1";
    expect(check(badSeq)).toMatchObject({ verified: false, check: "action", action: 1 });
    const badSeat = copy();
    badSeat.log[0].seat = "0";
    expect(check(badSeat)).toMatchObject({ verified: false, check: "action", action: 1 });
    const players = copy();
    players.players = 1e6;
    expect(check(players)).toMatchObject({ verified: false, check: "deal" });
    const log = copy();
    log.log = { 0: 1 };
    expect(check(log)).toMatchObject({ verified: false, check: "action" });
    const seed = copy();
    seed.deal.seed = "18446744073709551616"; // 2^64
    expect(verifier.commitmentInput(JSON.stringify(seed))).toBe("");
    expect(verifier.check(JSON.stringify(seed), undefined)).toMatchObject({ verified: false, check: "commitment" });
    // The module still answers after all that.
    expect(check(honest).verified).toBe(true);
  });

  it("fails a digest that is not the commitment's, whoever computed it", () => {
    const text = fixtureText("la-casa");
    const v = verifier.check(text, sha256(`${verifier.commitmentInput(text)}\n`));
    expect(v).toMatchObject({ verified: false, check: "commitment", actions_checked: 0 });
    expect(v.why).toMatch(/^commitment mismatch/);
    expect(v.commitment_checked).toBeUndefined();
    expect(describeVerdict(v)).toContain("The commitment does not match");
  });

  // Plain http:// to a host other than localhost: the browser has no crypto.subtle.
  it("without a SHA-256 in the browser, never verifies, says why, and still runs the other checks", async () => {
    const noCrypto = await makeVerifier(wasm(), webCryptoSha256(null));
    const text = fixtureText("casino");
    const replay = JSON.parse(text);
    const v = await noCrypto.verify(text);
    expect(v).toMatchObject({ verified: false, check: "commitment", commitment_checked: false, actions_checked: replay.log.length });
    expect(v.why).toMatch(/^the commitment could not be checked/);
    expect(describeVerdict(v)).toMatch(/^Not verified: the commitment could not be checked in this browser/);
    expect(describeVerdict(v)).toContain(`all ${replay.log.length} moves check out`);
    // A tampered game still fails where it is tampered.
    const tampered = copy();
    tampered.scores[0] += 1;
    const t = await noCrypto.verify(JSON.stringify(tampered));
    expect(t).toMatchObject({ verified: false, check: "end", commitment_checked: false });
    expect(describeVerdict(t)).toContain("The end of the game does not match");
    // Neither does a digest that failed to come count as one.
    const broken = await makeVerifier(wasm(), webCryptoSha256({ digest: () => Promise.reject(new Error("no")) } as unknown as SubtleCrypto));
    expect(await broken.verify(text)).toMatchObject({ verified: false, commitment_checked: false });
  });
});
