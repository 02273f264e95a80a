// SPDX-License-Identifier: AGPL-3.0-or-later
// The replay page's handle on the game review: loaded only when a player asks for
// a review (the page imports this file on demand), it runs each review in a Web
// Worker of its own (review-worker.ts), which `cancel` ends at once.
import type { Review, ReviewError, ReviewOptions } from "./review-view";

export type RunningReview = { done: Promise<Review | ReviewError>; cancel(): void };

/** Starts the review of a replay's text. */
export function startReview(text: string, options: ReviewOptions): RunningReview {
  if (typeof Worker === "undefined") {
    // No workers here: the review runs on the page (it waits for it).
    return {
      done: import("./review").then(async (m) => (await m.fetchReviewer()).review(text, options)),
      cancel() {},
    };
  }
  const worker = new Worker(new URL("./review-worker.ts", import.meta.url), { type: "module" });
  let reject: (e: Error) => void = () => {};
  const done = new Promise<Review | ReviewError>((res, rej) => {
    reject = rej;
    worker.onmessage = (e: MessageEvent<{ id: number; review?: Review | ReviewError; error?: string }>) => {
      worker.terminate();
      if (e.data.review) res(e.data.review);
      else rej(new Error(e.data.error ?? "the review failed to run"));
    };
    worker.onerror = (e) => {
      worker.terminate();
      rej(new Error(e.message || "the review's worker failed"));
    };
  });
  worker.postMessage({ id: 1, text, options });
  return {
    done,
    cancel() {
      worker.terminate();
      reject(new Error("cancelled"));
    },
  };
}
