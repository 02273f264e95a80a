// SPDX-License-Identifier: AGPL-3.0-or-later
// How long the replay page's full check takes: casa-verify.wasm (the engine and
// casa verify's checks, scripts/build-wasm.sh) instantiated in Node.js, then each
// real replay of test/fixtures checked REPEAT times (median and slowest): the
// commitment's text from the module, its SHA-256 from WebCrypto (as the page does),
// then the checks. Prints the figures; asserts nothing beyond every replay verifying.
//
//   node bench/verify-bench.mjs            (REPEAT, default 20)
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const webDir = resolve(new URL(".", import.meta.url).pathname, "..");
const REPEAT = Number(process.env.REPEAT ?? 20);
const bytes = readFileSync(join(webDir, "src/wasm/casa-verify.wasm"));
const ENOSYS = 52;
let t0 = performance.now();
const { instance } = await WebAssembly.instantiate(bytes, {
  wasi_snapshot_preview1: { fd_write: () => ENOSYS, fd_seek: () => ENOSYS, fd_close: () => ENOSYS },
});
const m = instance.exports;
m._initialize();
console.log(`module ${(bytes.length / 1024).toFixed(0)} KB, compiled and instantiated in ${(performance.now() - t0).toFixed(1)} ms`);
for (const game of ["la-casa", "la-casa-solo", "casino", "conference", "trophy-case"]) {
  const text = new TextEncoder().encode(readFileSync(join(webDir, `test/fixtures/replay-${game}.json`), "utf8"));
  const times = [];
  let verdict;
  for (let i = 0; i < REPEAT; i++) {
    const p = m.casa_alloc(text.length);
    new Uint8Array(m.memory.buffer, p, text.length).set(text);
    t0 = performance.now();
    const at = m.casa_commitment_input(p, text.length);
    const input = new Uint8Array(m.memory.buffer, at, m.casa_result_length()).slice();
    const digest = new TextEncoder().encode(
      [...new Uint8Array(await crypto.subtle.digest("SHA-256", input))].map((b) => b.toString(16).padStart(2, "0")).join(""),
    );
    const d = m.casa_alloc(digest.length);
    new Uint8Array(m.memory.buffer, d, digest.length).set(digest);
    const out = m.casa_verify(p, text.length, 0, 0, d, digest.length);
    times.push(performance.now() - t0);
    verdict = JSON.parse(new TextDecoder().decode(new Uint8Array(m.memory.buffer, out, m.casa_result_length())));
    m.casa_free(p);
    m.casa_free(d);
  }
  if (!verdict.verified) throw new Error(`${game}: ${verdict.why}`);
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `${game.padEnd(13)} ${String(verdict.actions_checked).padStart(4)} moves, ${(text.length / 1024).toFixed(0).padStart(4)} KB: ` +
      `median ${median.toFixed(1)} ms (${((1000 * median) / verdict.actions_checked).toFixed(0)} µs a move), slowest ${times.at(-1).toFixed(1)} ms`,
  );
}
