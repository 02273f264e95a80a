// SPDX-License-Identifier: AGPL-3.0-or-later
// Runs a game review (review.ts) off the page's thread: a review searches every
// decision of a game and takes seconds, and the page stays responsive meanwhile.
// A review cannot be interrupted from inside: to cancel, the page ends the worker.
// In: {id, text, options}; out: {id, review} or {id, error}.
import { fetchReviewer, type Reviewer } from "./review";
import type { ReviewOptions } from "./review-view";

let reviewer: Promise<Reviewer> | null = null;

self.onmessage = async (e: MessageEvent<{ id: number; text: string; options?: ReviewOptions }>) => {
  const { id, text, options } = e.data;
  try {
    reviewer ??= fetchReviewer();
    const review = (await reviewer).review(text, options);
    self.postMessage({ id, review });
  } catch (err) {
    reviewer = null; // a failed load is tried again next time
    self.postMessage({ id, error: String((err as Error)?.message ?? err) });
  }
};
