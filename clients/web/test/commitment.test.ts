import { describe, expect, it } from "vitest";
import { checkDeal, commitmentText, sha256Hex } from "../src/commitment";

// The worked example of docs/fair-play.md (also checked on the C++ side in
// tests/server/deals_test.cpp): printf '%s' '00112233445566778899aabbccddeeff:42' | sha256sum
const salt = "00112233445566778899aabbccddeeff";
const hash = "7b3b098f58012e7d32d1b88bb5c8c546db559a7456e83c682c425606378d844d";
const replay = (over: object = {}) => ({
  table: "t9",
  deal_commitment: { algorithm: "sha256", hash },
  deal: { seed: "42", salt },
  ...over,
});

describe("deal commitment", () => {
  it("hashes '<salt>:<seed>' with WebCrypto SHA-256", async () => {
    expect(commitmentText(salt, "42")).toBe(`${salt}:42`);
    expect(await sha256Hex(commitmentText(salt, "42"), globalThis.crypto.subtle)).toBe(hash);
  });

  it("accepts the revealed seed and salt of an honest table", async () => {
    expect(await checkDeal(replay())).toEqual({ kind: "match", hash, seed: "42", salt });
  });

  it("rejects another seed, another salt, or another commitment", async () => {
    const seed = await checkDeal(replay({ deal: { seed: "43", salt } }));
    expect(seed.kind).toBe("mismatch");
    const otherSalt = await checkDeal(replay({ deal: { seed: "42", salt: salt.replace("00", "01") } }));
    expect(otherSalt.kind).toBe("mismatch");
    const otherHash = await checkDeal(replay({ deal_commitment: { algorithm: "sha256", hash: hash.replace("7b", "7c") } }));
    expect(otherHash).toMatchObject({ kind: "mismatch", computed: hash });
  });

  it("says when there is nothing to check, or no WebCrypto to check with", async () => {
    expect(await checkDeal({ table: "t1", seed: "42" })).toEqual({ kind: "none" });
    expect(await checkDeal(replay(), null)).toMatchObject({ kind: "unavailable", hash });
    expect(await checkDeal(replay({ deal_commitment: { algorithm: "md5", hash } }))).toMatchObject({ kind: "unavailable" });
  });
});
