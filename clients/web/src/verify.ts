// The full check of a finished game's replay in the browser: the same C++ as
// `casa verify` (verify/verify.cpp with the rules engine), compiled to WebAssembly
// (scripts/build-wasm.sh). It recomputes the deal commitment, deals again from the
// revealed seed, replays every logged move (right seat, legal, same state after
// it) and compares the end: final state, scores and winners (docs/fair-play.md).
//
// The module is a WASI reactor. Its C library links in three WASI functions for
// stdio (fd_write, fd_seek, fd_close) that the checks never call: the few lines
// below answer them with ENOSYS instead of pulling in a WASI runtime.
import wasmUrl from "./wasm/casa-verify.wasm?url";

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
};

export type Verifier = { verify(replayText: string, publishedCommitment?: string): Verdict };
/** The same, where the module runs elsewhere (a Web Worker: verify-worker.ts). */
export type AsyncVerifier = { verify(replayText: string, publishedCommitment?: string): Verdict | Promise<Verdict> };

type Exports = {
  memory: WebAssembly.Memory;
  _initialize(): void;
  casa_alloc(n: number): number;
  casa_free(p: number): void;
  casa_verify(replay: number, replayLength: number, published: number, publishedLength: number): number;
  casa_verdict_length(): number;
};

const ENOSYS = 52;
const wasi = {
  fd_write: () => ENOSYS,
  fd_seek: () => ENOSYS,
  fd_close: () => ENOSYS,
};

/** Instantiates the module from its bytes. */
export async function makeVerifier(bytes: BufferSource): Promise<Verifier> {
  const { instance } = await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: wasi });
  const m = instance.exports as unknown as Exports;
  m._initialize();
  const put = (bytes: Uint8Array): number => {
    const p = m.casa_alloc(bytes.length);
    new Uint8Array(m.memory.buffer, p, bytes.length).set(bytes);
    return p;
  };
  return {
    verify(replayText: string, publishedCommitment = ""): Verdict {
      const text = new TextEncoder().encode(replayText);
      const noted = new TextEncoder().encode(publishedCommitment);
      const a = put(text);
      const b = put(noted);
      try {
        const out = m.casa_verify(a, text.length, b, noted.length);
        // The memory may have grown during the call: a fresh view of it.
        const verdict = new Uint8Array(m.memory.buffer, out, m.casa_verdict_length());
        return JSON.parse(new TextDecoder().decode(verdict)) as Verdict;
      } finally {
        m.casa_free(a);
        m.casa_free(b);
      }
    },
  };
}

/** The sentence the replay page shows for a verdict. */
export function describeVerdict(v: Verdict): string {
  if (v.verified) return `Verified: the deal and all ${v.actions_checked} moves check out against the rules engine.`;
  const where: Record<string, string> = {
    replay: "The replay could not be read",
    commitment: "The commitment does not match",
    deal: "The deal is not the seed's",
    action: `Move ${v.action ?? "?"} does not check out`,
    end: "The end of the game does not match",
  };
  return `Not verified: ${where[v.check ?? ""] ?? "a check failed"}: ${v.why ?? ""}`;
}

/** The module of this build (a hashed asset beside the page), fetched and instantiated. */
export async function fetchVerifier(): Promise<Verifier> {
  const r = await fetch(wasmUrl);
  if (!r.ok) throw new Error(`${wasmUrl}: ${r.status}`);
  return makeVerifier(await r.arrayBuffer());
}
