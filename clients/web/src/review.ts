// SPDX-License-Identifier: AGPL-3.0-or-later
// The review of a finished game in the browser: the same C++ as `casa review`
// (review/review.cpp with the rules engine and the strong bot's search), compiled
// to WebAssembly (scripts/build-wasm.sh) and run in a Web Worker (review-worker.ts),
// so a review costs the server nothing and the page never waits on it. The review
// judges each decision only from what the deciding seat could see then
// (docs/review.md); its JSON is described there.
//
// The module is a WASI reactor like the replay checks' (verify.ts): its C library
// links in a few WASI functions for stdio that the review never calls, answered
// here with ENOSYS.
import wasmUrl from "./wasm/casa-review.wasm?url";
import type { Review, ReviewError, ReviewOptions } from "./review-view";

type Exports = {
  memory: WebAssembly.Memory;
  _initialize(): void;
  casa_alloc(n: number): number;
  casa_free(p: number): void;
  casa_review(replay: number, replayLength: number, options: number, optionsLength: number): number;
  casa_result_length(): number;
};

const ENOSYS = 52;
const wasi = {
  fd_write: () => ENOSYS,
  fd_seek: () => ENOSYS,
  fd_close: () => ENOSYS,
  proc_exit: (code: number) => {
    throw new Error(`the review stopped (${code})`);
  },
};

export type Reviewer = { review(replayText: string, options?: ReviewOptions): Review | ReviewError };

/** The options as the module reads them: the seed as a decimal string (a 64-bit number). */
export function optionsText(o: ReviewOptions = {}): string {
  const out: Record<string, unknown> = {};
  if (o.iterations !== undefined) out.iterations = o.iterations;
  if (o.seed !== undefined) out.seed = String(o.seed);
  if (o.seats !== undefined) out.seats = o.seats;
  return JSON.stringify(out);
}

/** Instantiates the module from its bytes. */
export async function makeReviewer(bytes: BufferSource): Promise<Reviewer> {
  const { instance } = await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: wasi });
  const m = instance.exports as unknown as Exports;
  m._initialize();
  const put = (text: string): [number, number] => {
    const b = new TextEncoder().encode(text);
    const p = m.casa_alloc(b.length);
    new Uint8Array(m.memory.buffer, p, b.length).set(b);
    return [p, b.length];
  };
  return {
    review(replayText, options) {
      const [a, n] = put(replayText);
      const [b, k] = put(optionsText(options));
      try {
        const out = m.casa_review(a, n, b, k);
        // The memory may have grown during the review: a fresh view.
        return JSON.parse(new TextDecoder().decode(new Uint8Array(m.memory.buffer, out, m.casa_result_length()))) as Review | ReviewError;
      } finally {
        m.casa_free(a);
        m.casa_free(b);
      }
    },
  };
}

/** The module of this build (a hashed asset beside the page), fetched and instantiated. */
export async function fetchReviewer(): Promise<Reviewer> {
  const r = await fetch(wasmUrl);
  if (!r.ok) throw new Error(`${wasmUrl}: ${r.status}`);
  return makeReviewer(await r.arrayBuffer());
}
