// SPDX-License-Identifier: AGPL-3.0-or-later
// The review of a finished game in the browser: the same C++ as `casa review`
// (review/review.cpp with the rules engine and the strong bot's search), compiled
// to WebAssembly (scripts/build-wasm.sh) and run in a Web Worker (review-worker.ts),
// so a review costs the server nothing and the page never waits on it. The review
// judges each decision only from what the deciding seat could see then
// (docs/review.md); its JSON is described there.
//
// The module is a WASI reactor like the replay checks' (wasm-reactor.ts).
import wasmUrl from "./wasm/casa-review.wasm?url";
import type { Review, ReviewError, ReviewOptions } from "./review-view";
import { startReactor } from "./wasm-reactor";

type Exports = {
  casa_review(replay: number, replayLength: number, options: number, optionsLength: number): number;
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
  const { exports: m, put, result } = await startReactor<Exports>(bytes, "the review");
  return {
    review(replayText, options) {
      const [a, n] = put(replayText);
      const [b, k] = put(optionsText(options));
      try {
        return JSON.parse(result(m.casa_review(a, n, b, k))) as Review | ReviewError;
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
