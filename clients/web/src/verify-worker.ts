// SPDX-License-Identifier: AGPL-3.0-or-later
// Runs the replay checks (verify.ts) off the page's thread: a long game takes a
// noticeable fraction of a second to replay, and the page stays responsive meanwhile.
// The commitment's SHA-256 is the worker's own WebCrypto (self.crypto.subtle, present
// where the page is a secure context: https://, or http:// on localhost).
// In: {id, text, noted}; out: {id, verdict} or {id, error}.
import { fetchVerifier, type Verifier } from "./verify";

let verifier: Promise<Verifier> | null = null;

self.onmessage = async (e: MessageEvent<{ id: number; text: string; noted?: string }>) => {
  const { id, text, noted } = e.data;
  try {
    verifier ??= fetchVerifier();
    const verdict = await (await verifier).verify(text, noted);
    self.postMessage({ id, verdict });
  } catch (err) {
    verifier = null; // a failed load is tried again next time
    self.postMessage({ id, error: String((err as Error)?.message ?? err) });
  }
};
