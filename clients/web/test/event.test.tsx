// SPDX-License-Identifier: AGPL-3.0-or-later
import { render } from "preact";
import { act } from "preact/test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { parseRoute } from "../src/app";
import { EventView } from "../src/ui/Event";
import { fixture } from "./helpers";

let root: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
});

describe("event page", () => {
  it("is reached at /event/{id}", () => {
    expect(parseRoute("/event/e12ab")).toEqual({ page: "event", event: "e12ab" });
  });

  it("lists the standings best first and each revealed board's differences, linking the replays", () => {
    const event = fixture("event-over.json");
    const navigated: string[] = [];
    act(() => render(<EventView event={event} navigate={(p) => navigated.push(p)} />, root));
    const rows = [...root.querySelectorAll(".standings tbody tr")];
    expect(rows.length).toBe(event.standings.length);
    rows.forEach((row, i) => {
      const s = event.standings[i];
      expect(row.getAttribute("data-side")).toBe(String(s.side));
      const cells = [...row.querySelectorAll("td")].map((c) => c.textContent);
      expect(cells[1]).toBe(s.name);
      expect(cells[2]).toBe(s.total > 0 ? `+${s.total}` : String(s.total));
    });
    const boards = root.querySelectorAll(".event-board");
    expect(boards.length).toBe(event.boards);
    const diffs = [...boards[0].querySelectorAll(".difference")].map((c) => Number(c.textContent));
    expect(diffs).toEqual(event.results[0].differences.map((d: { difference: number }) => d.difference));
    act(() => (boards[0].querySelector("a") as HTMLAnchorElement).click());
    expect(navigated[0]).toMatch(/^\/replay\/t/);
  });

  it("says a board is hidden until every table has played it, and shows no score for it", () => {
    const event = fixture("event-over.json");
    const running = {
      ...event,
      status: "running",
      results: [{ board: 1, revealed: false }, ...event.results.slice(1)],
      tables: event.tables.map((t: { board: number; rotation: number }) =>
        t.board === 1 && t.rotation === 1 ? { ...t, status: "playing" } : t,
      ),
    };
    act(() => render(<EventView event={running} navigate={() => {}} />, root));
    const first = root.querySelector(".event-board")!;
    expect(first.textContent).toContain("Hidden until every table has played it");
    expect(first.textContent).toContain("table 2: playing");
    expect(first.querySelector(".difference")).toBeNull();
  });
});
