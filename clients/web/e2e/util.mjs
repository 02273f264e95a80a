// SPDX-License-Identifier: AGPL-3.0-or-later
// What the browser tests share: an assertion, a free loopback port for the
// server they start, and the wait until it answers.
import { createServer } from "node:net";

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => res(p));
    });
    s.on("error", rej);
  });
}

// Resolves once `url` answers 2xx; throws after `ms`.
export async function waitHttp(url, ms = 20000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}
