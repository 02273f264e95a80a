// SPDX-License-Identifier: AGPL-3.0-or-later
// Correspondence and "Your games": durations from seconds to days in words, the
// lobby's list as the server orders it (waiting for you first) with the time left
// counting down, and the create form's time per move.
import { render } from "preact";
import { act } from "preact/test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { formatDuration, paceWords, PACES } from "../src/pace";
import { reduce, initialState, type MyTable } from "../src/store";
import { YourGames, timeLeft, waitingFor } from "../src/ui/YourGames";
import { Lobby } from "../src/ui/Lobby";
import type { Json } from "../src/words";
import { makeApp } from "./helpers";

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
  localStorage.setItem("casa.name", "ann");
  localStorage.setItem("casa.lang", "en");
});
const settle = () => new Promise((r) => setTimeout(r, 50));

function entry(fields: Partial<MyTable>): MyTable {
  return {
    table: "t1", game: "la-casa", players: 2, status: "playing", seat: 0, correspondence: true,
    move_timeout_seconds: 86400, turn: [0], your_turn: true,
    seats: [{ seat: 0, kind: "player", name: "ann" }, { seat: 1, kind: "player", name: "bob" }],
    ...fields,
  };
}

describe("durations", () => {
  it("are m:ss under an hour, hours and minutes under a day, days and hours beyond", () => {
    expect(formatDuration(65_000)).toBe("1:05");
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration((5 * 3600 + 12 * 60) * 1000)).toBe("5 h 12 min");
    expect(formatDuration(((2 * 24 + 3) * 3600 + 59) * 1000)).toBe("2 d 3 h");
  });
  it("name the form's times per move in whole units", () => {
    expect(PACES.map(paceWords)).toEqual(["1 h", "12 h", "1 d", "3 d", "7 d"]);
    expect(paceWords(90)).toBe("1:30");
  });
});

describe("your games", () => {
  it("keeps the server's list and counts the time left down from when it came", () => {
    const s = initialState();
    const list = [entry({ table: "t2", remaining_ms: 10_000 }), entry({ table: "t1", your_turn: false, turn: [1], remaining_ms: 90_000 })];
    expect(reduce(s, { type: "my_tables", tables: list } as Json, 1_000)).toBe(true);
    expect(s.myTables!.map((t) => t.table)).toEqual(["t2", "t1"]);
    expect(timeLeft(s.myTables![0], s.myTablesAt, 4_000)).toBe(7_000);
    expect(timeLeft(s.myTables![0], s.myTablesAt, 60_000)).toBe(0);
    expect(timeLeft(entry({}), 0, 0)).toBeNull();
    expect(waitingFor(s.myTables![1])).toBe("bob");
  });

  it("shows the tables waiting for you first, with whose turn and the time left", async () => {
    const { app, conn } = makeApp();
    await act(async () => {
      render(<YourGames app={app} />, root);
      await settle();
    });
    expect(conn.sent.some((m) => m.type === "my_tables")).toBe(true);
    expect(root.querySelector(".your-games")).toBeNull(); // nothing listed yet
    await act(async () => {
      app.receive({
        type: "my_tables",
        tables: [
          entry({ table: "t2", remaining_ms: 2 * 3600_000 }),
          entry({ table: "t1", your_turn: false, turn: [1], remaining_ms: 26 * 3600_000 }),
          entry({ table: "t3", status: "waiting", turn: [], your_turn: false, correspondence: false, move_timeout_seconds: 0 }),
        ],
      } as Json);
      render(<YourGames app={app} />, root); // the page re-renders on every change (Root)
      await settle();
    });
    const lines = [...root.querySelectorAll(".my-table")];
    expect(lines.map((l) => l.getAttribute("data-table"))).toEqual(["t2", "t1", "t3"]);
    expect(lines[0].classList.contains("your-move")).toBe(true);
    expect(lines[0].textContent).toContain("Your move");
    expect(lines[0].textContent).toContain("2 h 0 min left");
    expect(lines[1].textContent).toContain("waiting for bob");
    expect(lines[1].textContent).toContain("1 d 2 h left");
    expect(lines[2].textContent).toContain("waiting for players");
    expect(lines[2].textContent).not.toContain("left");
    // A link opens the table.
    await act(async () => {
      (lines[1].querySelector("a") as HTMLAnchorElement).click();
      await settle();
    });
    expect(location.pathname).toBe("/table/t1");
  });
});

describe("the create form's time per move", () => {
  it("makes a correspondence table with the chosen time", async () => {
    (globalThis as Json).fetch = async () => ({ ok: true, status: 200, json: async () => ({ games: [{ name: "la-casa", players: [2, 4], options: { type: "object", properties: {} } }] }) });
    const { app, conn } = makeApp();
    window.history.replaceState(null, "", "/");
    await act(async () => {
      render(<Lobby app={app} />, root);
      await settle();
    });
    for (let i = 0; i < 20 && !root.querySelector("#pace"); i++) await act(async () => { await settle(); });
    const pace = root.querySelector("#pace") as HTMLSelectElement;
    expect([...pace.options].map((o) => o.textContent)).toContain("3 d");
    await act(async () => {
      pace.value = String(3 * 86400);
      pace.dispatchEvent(new Event("change", { bubbles: true }));
      await settle();
    });
    expect(root.querySelector("#timer")).toBeNull(); // the live timer gives way
    await act(async () => {
      (root.querySelector('button[name="create"]') as HTMLButtonElement).click();
      await settle();
    });
    const created = conn.sent.find((m) => m.type === "create_table");
    expect(created).toBeTruthy();
    expect(created.correspondence).toBe(true);
    expect(created.move_timeout_seconds).toBe(3 * 86400);
  });
});
