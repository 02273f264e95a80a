// SPDX-License-Identifier: AGPL-3.0-or-later
// The full check of a finished game's replay in the browser: the same C++ as
// `casa verify` (verify/verify.cpp with the rules engine), compiled to WebAssembly
// (scripts/build-wasm.sh). It checks the deal commitment, deals again from the
// revealed seed, replays every logged move (right seat, legal, same state after
// it) and compares the end: final state, scores and winners (docs/fair-play.md).
//
// The module hashes nothing: it names the exact text the commitment hashes
// (casa_commitment_input), this file hashes it with the browser's own SHA-256
// (WebCrypto's crypto.subtle.digest) and hands the digest back with the replay
// (casa_verify), which compares it with the published commitment. crypto.subtle
// exists only in secure contexts (https:// pages, and http:// ones on localhost or
// 127.0.0.1): on plain http:// to any other host there is none, and the verdict
// then says the commitment could not be checked here, never that the game verified.
//
// The module is a WASI reactor. Its C library links in three WASI functions for
// stdio (fd_write, fd_seek, fd_close) that the checks never call:
// wasm-reactor.ts answers them with ENOSYS instead of pulling in a WASI runtime.
import { t } from "./i18n";
import wasmUrl from "./wasm/casa-verify.wasm?url";
import { startReactor } from "./wasm-reactor";

/** What the module says of a replay (verify.h's verdict_json). */
export type Verdict = {
  verified: boolean;
  game: string;
  seed: string;
  commitment: string;
  actions_checked: number;
  /** Which check failed: "replay", "commitment", "deal", "action" or "end". */
  check?: string;
  /** The log's seq of the action that failed. */
  action?: number;
  why?: string;
  /** Present (false) when there was no SHA-256 to check the commitment with. */
  commitment_checked?: false;
};

/** SHA-256 of a text (UTF-8) as 64 lowercase hex digits; undefined when there is none. */
export type Sha256 = (text: string) => Promise<string | undefined>;

/**
 * WebCrypto's SHA-256, by default of the page or the worker it runs in. It gives
 * undefined when there is no crypto.subtle (plain http:// to a host other than
 * localhost; `null` stands for that in tests) or the digest fails.
 */
export function webCryptoSha256(subtle: SubtleCrypto | null | undefined = globalThis.crypto?.subtle): Sha256 {
  return async (text) => {
    if (!subtle) return undefined;
    let digest: ArrayBuffer;
    try {
      digest = await subtle.digest("SHA-256", new TextEncoder().encode(text));
    } catch {
      return undefined;
    }
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  };
}

/** The full check of a replay's text, against the commitment the player noted if any. */
export type AsyncVerifier = { verify(replayText: string, publishedCommitment?: string): Promise<Verdict> };

/** The module's two steps, for tests: what to hash, and the verdict given a digest. */
export type Verifier = AsyncVerifier & {
  /** The exact text the replay's commitment hashes ("" when it reveals no well-formed salt and seed). */
  commitmentInput(replayText: string): string;
  /** The verdict, given the SHA-256 of commitmentInput (undefined: none could be computed). */
  check(replayText: string, digest: string | undefined, publishedCommitment?: string): Verdict;
};

type Exports = {
  casa_commitment_input(replay: number, replayLength: number): number;
  casa_verify(replay: number, replayLength: number, published: number, publishedLength: number, digest: number, digestLength: number): number;
};

/** Instantiates the module from its bytes; `sha256` hashes the commitment's text. */
export async function makeVerifier(bytes: BufferSource, sha256: Sha256 = webCryptoSha256()): Promise<Verifier> {
  const { exports: m, put, result } = await startReactor<Exports>(bytes, "the replay checks");
  const commitmentInput = (replayText: string): string => {
    const [a, n] = put(replayText);
    try {
      return result(m.casa_commitment_input(a, n));
    } finally {
      m.casa_free(a);
    }
  };
  const check = (replayText: string, digest: string | undefined, publishedCommitment = ""): Verdict => {
    const [a, n] = put(replayText);
    const [b, k] = put(publishedCommitment);
    const [c, d] = put(digest ?? "");
    try {
      return JSON.parse(result(m.casa_verify(a, n, b, k, c, d))) as Verdict;
    } finally {
      m.casa_free(a);
      m.casa_free(b);
      m.casa_free(c);
    }
  };
  return {
    commitmentInput,
    check,
    async verify(replayText, publishedCommitment) {
      const input = commitmentInput(replayText);
      // No well-formed salt and seed: the module fails the commitment check without a digest.
      const digest = input ? await sha256(input) : undefined;
      return check(replayText, digest, publishedCommitment);
    },
  };
}

/** Why a browser may have no SHA-256 for the page. */
export const NO_SHA256 = "v.noSha256"; // the catalogue key of why a page cannot check the commitment

/** The sentence the replay page shows for a verdict. */
export function describeVerdict(v: Verdict): string {
  if (v.verified) return t("v.verified", { n: v.actions_checked ?? 0 });
  if (v.commitment_checked === false && v.check === "commitment") return t("v.noSha", { why: t("v.noSha256"), n: v.actions_checked ?? 0 });
  const where: Record<string, string> = {
    replay: t("v.replay"),
    commitment: t("v.commitment"),
    deal: t("v.deal"),
    action: t("v.action", { n: v.action ?? "?" }),
    end: t("v.end"),
  };
  // `why` is the checks' own text (the engine's words, as `casa verify` prints them).
  return t("v.notVerified", { where: where[v.check ?? ""] ?? t("v.failed"), why: v.why ?? "" });
}

/** The module of this build (a hashed asset beside the page), fetched and instantiated. */
export async function fetchVerifier(): Promise<Verifier> {
  const r = await fetch(wasmUrl);
  if (!r.ok) throw new Error(`${wasmUrl}: ${r.status}`);
  return makeVerifier(await r.arrayBuffer());
}
