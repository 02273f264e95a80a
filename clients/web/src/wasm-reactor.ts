// SPDX-License-Identifier: AGPL-3.0-or-later
// What the page's two WebAssembly modules (casa-verify.wasm for the replay
// checks, casa-review.wasm for the review; scripts/build-wasm.sh) share: each is
// a WASI reactor whose C library links in a few WASI functions for stdio that it
// never calls (answered here with ENOSYS), with the same way in and out: text is
// copied into memory from casa_alloc, and an answer is read at the pointer a call
// returns, casa_result_length() bytes long.

export type ReactorExports = {
  memory: WebAssembly.Memory;
  _initialize(): void;
  casa_alloc(n: number): number;
  casa_free(p: number): void;
  casa_result_length(): number;
};

export type Reactor<E> = {
  exports: E & ReactorExports;
  /** `text` copied into the module's memory: its pointer and length (free it with casa_free). */
  put(text: string): [number, number];
  /** The module's answer at `out` (the memory may have grown: a fresh view). */
  result(out: number): string;
};

const ENOSYS = 52;

/** Instantiates and initialises the module; `what` names it if it ever exits. */
export async function startReactor<E>(bytes: BufferSource, what: string): Promise<Reactor<E>> {
  const wasi = {
    fd_write: () => ENOSYS,
    fd_seek: () => ENOSYS,
    fd_close: () => ENOSYS,
    proc_exit: (code: number) => {
      throw new Error(`${what} stopped (${code})`);
    },
  };
  const { instance } = await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: wasi });
  const m = instance.exports as unknown as E & ReactorExports;
  m._initialize();
  return {
    exports: m,
    put(text) {
      const b = new TextEncoder().encode(text);
      const p = m.casa_alloc(b.length);
      new Uint8Array(m.memory.buffer, p, b.length).set(b);
      return [p, b.length];
    },
    result: (out) => new TextDecoder().decode(new Uint8Array(m.memory.buffer, out, m.casa_result_length())),
  };
}
