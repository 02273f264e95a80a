// SPDX-License-Identifier: AGPL-3.0-or-later
// The page's handle on the replay checks: they run in a Web Worker
// (verify-worker.ts) started on first use, or in the page where there is no Worker.
import { fetchVerifier, type AsyncVerifier, type Verdict } from "./verify";

let worker: Worker | null = null;
let next = 0;
const waiting = new Map<number, { resolve: (v: Verdict) => void; reject: (e: Error) => void }>();

function inWorker(): AsyncVerifier {
  if (!worker) {
    worker = new Worker(new URL("./verify-worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (e: MessageEvent<{ id: number; verdict?: Verdict; error?: string }>) => {
      const w = waiting.get(e.data.id);
      waiting.delete(e.data.id);
      if (!w) return;
      if (e.data.verdict) w.resolve(e.data.verdict);
      else w.reject(new Error(e.data.error ?? "the checks failed to run"));
    };
    worker.onerror = (e) => {
      for (const w of waiting.values()) w.reject(new Error(e.message || "the checks' worker failed"));
      waiting.clear();
      worker = null;
    };
  }
  const w = worker;
  return {
    verify: (text, noted) =>
      new Promise<Verdict>((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        w.postMessage({ id, text, noted });
      }),
  };
}

/** The checks, ready to take a replay. */
export async function loadVerifier(): Promise<AsyncVerifier> {
  return typeof Worker === "undefined" ? fetchVerifier() : inWorker();
}
