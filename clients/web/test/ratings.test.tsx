// SPDX-License-Identifier: AGPL-3.0-or-later
import { render } from "preact";
import { act } from "preact/test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { parseRoute } from "../src/app";
import { LeaderboardPage, ProfilePage, ratingText } from "../src/ui/Ratings";
import type { Json } from "../src/words";

let root: HTMLElement;
let asked: string[];
beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  root = document.getElementById("root")!;
  asked = [];
});

function serve(routes: Record<string, Json>) {
  (globalThis as Json).fetch = async (url: string) => {
    asked.push(url);
    const body = routes[url];
    return body ? { ok: true, status: 200, json: async () => body } : { ok: false, status: 404 };
  };
}

async function settle(until: () => boolean) {
  for (let i = 0; i < 10 && !until(); i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10));
    });
  }
}

const board = {
  game: "la-casa",
  players: [],
  ratings: [
    { player_id: "p1", name: "ann", bot: false, rating: 1662.31, deviation: 290.32, volatility: 0.06, games: 1, provisional: true },
    { player_id: "bot:strong", name: "strong (bot)", bot: true, rating: 1601.5, deviation: 80.4, volatility: 0.06, games: 40, provisional: false },
    { player_id: "p2", name: "ann#2", bot: false, rating: 1337.69, deviation: 290.32, volatility: 0.06, games: 1, provisional: true },
  ],
  solo: [{ player_id: "p2", name: "ann#2", game: "la-casa", games: 4, wins: 3, win_rate: 0.75, best_score: 5 }],
};

describe("routes", () => {
  it("opens the leaderboard of a game and a player's profile", () => {
    expect(parseRoute("/leaderboard")).toEqual({ page: "leaderboard", game: "la-casa" });
    expect(parseRoute("/leaderboard/casino")).toEqual({ page: "leaderboard", game: "casino" });
    expect(parseRoute("/players/bot%3Arobot")).toEqual({ page: "player", id: "bot:robot" });
  });
});

describe("leaderboard page", () => {
  it("lists rating ± deviation best first, marks provisional ratings, keeps two anns apart", async () => {
    serve({ "/api/leaderboard?game=la-casa": board });
    await act(async () => render(<LeaderboardPage game="la-casa" navigate={() => {}} />, root));
    await settle(() => root.querySelectorAll("table.ratings").length > 0);
    const rows = [...root.querySelectorAll("table.ratings:not(.solo) tbody tr")];
    expect(rows.map((r) => r.querySelector("td:nth-child(2)")!.textContent)).toEqual(["ann", "strong (bot)", "ann#2"]);
    expect(rows[0].querySelector("td.rating")!.textContent).toBe("1662 ± 290?");
    expect(root.querySelector("caption.prov-note")!.textContent).toContain("provisional: too few games");
    expect(rows[0].classList.contains("provisional")).toBe(true);
    expect(rows[1].querySelector("abbr.prov")).toBeNull();
    expect(rows[1].querySelector("td.rating")!.textContent).toBe("1602 ± 80");
    expect(rows[2].querySelector("a")!.getAttribute("href")).toBe("/players/p2");
    const solo = root.querySelector("table.solo tbody tr")!;
    expect(solo.textContent).toBe("ann#24" + "75 %5");
  });

  it("says so when a game has no rated games yet", async () => {
    serve({ "/api/leaderboard?game=casino": { game: "casino", players: [], ratings: [], solo: [] } });
    await act(async () => render(<LeaderboardPage game="casino" navigate={() => {}} />, root));
    await settle(() => root.textContent!.includes("No rated"));
    expect(root.textContent).toContain("No rated games of Casino yet: games with bots are unrated unless their creator asked for a rating.");
    // Which games are rated, and how to rate one with bots, without a hover.
    expect(root.querySelector(".rating-rules")!.textContent).toContain("when every seat is a person");
    expect(root.querySelector(".rating-rules")!.textContent).toContain("rated, bots too");
  });
});

describe("profile page", () => {
  it("shows ratings per game, the solo record and recent games with their replays", async () => {
    serve({
      "/api/players/p1": {
        player_id: "p1",
        name: "ann",
        bot: false,
        ratings: [{ game: "la-casa", rating: 1662.31, deviation: 290.32, games: 1, provisional: true }],
        solo: [{ game: "la-casa", games: 2, wins: 1, win_rate: 0.5, best_score: 4 }],
        recent: [
          { table: "t7", game: "la-casa", players: 2, seat: 0, score: 11, winner: true, rated: true, rating_before: 1500, rating_after: 1662.31, finished_at: 1, replay: "/api/tables/t7/replay" },
          { table: "t6", game: "la-casa", players: 1, seat: 0, score: 4, winner: true, rated: false, finished_at: 0, replay: "/api/tables/t6/replay" },
        ],
      },
    });
    const went: string[] = [];
    await act(async () => render(<ProfilePage id="p1" navigate={(p) => went.push(p)} />, root));
    await settle(() => root.querySelector("h2") !== null);
    expect(root.querySelector("h2")!.textContent).toBe("ann");
    expect(root.querySelector("td.rating")!.textContent).toBe("1662 ± 290? (provisional)");
    expect(root.querySelector(".solo-record")!.textContent).toBe("La Casa Solo: 1 won of 2, best score 4.");
    const recent = root.querySelector(".recent li")!;
    expect(recent.textContent).toContain("La Casa, 2 players: won, score 11 (1500 → 1662)");
    // A count of one is singular.
    expect(root.querySelectorAll(".recent li")[1].textContent).toContain("La Casa, 1 player: won, score 4");
    act(() => (recent.querySelector("a") as HTMLAnchorElement).click());
    expect(went).toEqual(["/replay/t7"]);
  });

  it("says when there is no such player", async () => {
    serve({});
    await act(async () => render(<ProfilePage id="nobody" navigate={() => {}} />, root));
    await settle(() => root.textContent!.includes("No such"));
    expect(root.textContent).toBe("No such player.");
    expect(asked).toEqual(["/api/players/nobody"]);
  });

  it("rounds ratings for people", () => {
    expect(ratingText({ rating: 1464.0507, deviation: 151.5165 })).toBe("1464 ± 152");
  });
});
