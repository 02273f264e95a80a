// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { App } from "../src/app";
import type { Json } from "../src/words";

export function fixture(name: string): Json {
  return JSON.parse(readFileSync(join(process.cwd(), "test", "fixtures", name), "utf8"));
}

/** A connection that records what the page sends and answers nothing. */
export class FakeConnection {
  sent: Json[] = [];
  onMessage: (m: Json) => void = () => {};
  onStatus: (s: string) => void = () => {};
  onWelcome: (m: Json) => void = () => {};
  connect() {}
  drop() {}
  send(m: Json) {
    this.sent.push(m);
  }
  request(m: Json): Promise<Json> {
    this.sent.push(m);
    return new Promise(() => {});
  }
}

export function makeApp(): { app: App; conn: FakeConnection } {
  const conn = new FakeConnection();
  const app = new App(conn as never);
  app.state.connection = "open";
  return { app, conn };
}
