// The deal commitment of a finished game (docs/fair-play.md), checked in the
// browser: SHA-256 over "<salt>:<seed>" (the salt's 32 lowercase hex digits, a
// colon, the seed in decimal) must give the hash the table published before
// play. Only the commitment: replaying the deal and every move needs the rules
// engine, which is `casa verify`'s job.
import type { Json } from "./words";

export type DealCheck =
  | { kind: "none" } // a table from before commitments existed
  | { kind: "match"; hash: string; seed: string; salt: string }
  | { kind: "mismatch"; hash: string; computed: string; seed: string; salt: string }
  | { kind: "unavailable"; hash: string; seed: string; salt: string; why: string };

/** The exact text that is hashed. */
export function commitmentText(salt: string, seed: string): string {
  return `${salt}:${seed}`;
}

/** Lowercase hex SHA-256 of a text, with the browser's WebCrypto. */
export async function sha256Hex(text: string, subtle: SubtleCrypto): Promise<string> {
  const digest = await subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Checks a replay's revealed seed and salt against its commitment. `subtle` is
 * absent outside a secure context (a page served over plain http from another
 * host than localhost): the result then says so instead of guessing.
 */
export async function checkDeal(replay: Json, subtle: SubtleCrypto | null = globalThis.crypto?.subtle ?? null): Promise<DealCheck> {
  const hash = replay?.deal_commitment?.hash;
  const seed = replay?.deal?.seed;
  const salt = replay?.deal?.salt;
  if (typeof hash !== "string" || typeof seed !== "string" || typeof salt !== "string") return { kind: "none" };
  if (replay.deal_commitment.algorithm !== "sha256") {
    return { kind: "unavailable", hash, seed, salt, why: `unknown algorithm ${String(replay.deal_commitment.algorithm)}` };
  }
  if (!subtle) {
    return { kind: "unavailable", hash, seed, salt, why: "this browser offers WebCrypto only on https:// pages (or localhost)" };
  }
  const computed = await sha256Hex(commitmentText(salt, seed), subtle);
  return computed === hash ? { kind: "match", hash, seed, salt } : { kind: "mismatch", hash, computed, seed, salt };
}
