// SPDX-License-Identifier: AGPL-3.0-or-later
// Ratings through a running server: rated and unrated games, bots' own
// ratings, the solo table, the leaderboard and profile pages, names with a
// discriminator, and the rebuild from stored results (docs/ratings.md).
#include <cmath>
#include <regex>

#include "server/store/store.h"
#include "tests/server/support.h"

using namespace casa;
using namespace casa::testing;

namespace {

// Plays a fresh table of fake-trick to the end with these clients seated in
// order (seat i for clients[i]); `fields` add to create_table. Returns the
// table id and game_over.
std::pair<std::string, json> play_table(const std::vector<WsClient*>& clients, int players,
                                        json fields, std::uint32_t seed) {
  fields["game"] = "fake-trick";
  fields["players"] = players;
  const json created = create(*clients[0], fields);
  REQUIRE(created["type"] == "table_created");
  const std::string table = created["table"];
  for (std::size_t i = 1; i < clients.size(); ++i) {
    REQUIRE(clients[i]->call(
                {{"type", "join"}, {"table", table}, {"seat", static_cast<int>(i)}})["type"] ==
            "joined");
  }
  auto over = play_out(clients, table, random_legal(seed));
  return {table, over[0]};
}

const json* rating_of(const json& board, const std::string& player) {
  for (const auto& row : board["ratings"]) {
    if (row["player_id"] == player) return &row;
  }
  return nullptr;
}

// True when x, printed to `places` decimals, reads `printed`.
bool prints_as(double x, double printed, int places) {
  return std::fabs(x - printed) <= 0.5 * std::pow(10.0, -places) + 1e-12;
}

}  // namespace

TEST_CASE(
    "Ratings: a rated game moves both players as in Glicko-2, bots only when asked, solo apart") {
  TestServer ts;
  WsClient ann(ts.port()), bob(ts.port()), ann2(ts.port());
  ann.hello("ann");
  bob.hello("bob");
  ann2.hello("ann");

  // Two fresh people: the winner gets 1662.31 / 290.32, the loser 1337.69
  // (tests/server/ratings_test.cpp computes these by hand).
  auto [first, over] = play_table({&ann, &bob}, 2, {{"options", {{"hand", 3}}}}, 1);
  const json board = get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200);
  REQUIRE(board["ratings"].size() == 2);
  const json* a = rating_of(board, ann.player_id);
  const json* b = rating_of(board, bob.player_id);
  REQUIRE(a);
  REQUIRE(b);
  const bool ann_won = over["winners"].size() == 1 && over["winners"][0] == 0;
  const bool bob_won = over["winners"].size() == 1 && over["winners"][0] == 1;
  if (ann_won || bob_won) {
    const json& winner = ann_won ? *a : *b;
    const json& loser = ann_won ? *b : *a;
    CHECK(prints_as(winner["rating"].get<double>(), 1662.31, 2));
    CHECK(prints_as(loser["rating"].get<double>(), 1337.69, 2));
    CHECK(board["ratings"][0]["player_id"] == (ann_won ? ann.player_id : bob.player_id));
  } else {
    CHECK((*a)["rating"] == 1500.0);  // a draw between equals moves nobody
  }
  CHECK(prints_as((*a)["deviation"].get<double>(), 290.32, 2));
  CHECK((*a)["games"] == 1);
  CHECK((*a)["provisional"] == true);
  CHECK((*a)["name"] == "ann");

  // A second "ann" is shown as ann#2 and keeps a rating of her own.
  play_table({&ann2, &bob}, 2, json::object(), 2);
  const json board2 = get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200);
  REQUIRE(rating_of(board2, ann2.player_id));
  CHECK((*rating_of(board2, ann2.player_id))["name"] == "ann#2");
  CHECK((*rating_of(board2, ann.player_id))["name"] == "ann");
  CHECK((*rating_of(board2, ann.player_id))["games"] == 1);
  CHECK((*rating_of(board2, bob.player_id))["games"] == 2);
  std::set<std::string> names;
  for (const auto& row : board2["players"]) names.insert(row["name"].get<std::string>());
  CHECK(names == std::set<std::string>{"ann", "ann#2", "bob"});

  // With a bot, unrated by default: nobody moves, the bot holds no rating.
  const json created = create(ann, {{"game", "fake-trick"}, {"players", 2}});
  const std::string with_bot = created["table"];
  REQUIRE(
      ann.call({{"type", "add_bot"}, {"table", with_bot}, {"seat", 1}, {"bot", "robot"}})["type"] !=
      "error");
  play_out({&ann}, with_bot, random_legal(3));
  const json board3 = get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200);
  CHECK(board3["ratings"].size() == 3);
  CHECK((*rating_of(board3, ann.player_id))["games"] == 1);
  CHECK_FALSE(rating_of(board3, "bot:robot"));

  // rated: true rates the bot too, under bot:robot.
  const json rated = create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", true}});
  REQUIRE(rated["type"] == "table_created");
  const std::string rated_bot = rated["table"];
  REQUIRE(ann.call(
              {{"type", "add_bot"}, {"table", rated_bot}, {"seat", 1}, {"bot", "robot"}})["type"] !=
          "error");
  play_out({&ann}, rated_bot, random_legal(4));
  // table_state says what the creator asked, and nothing when it was left out.
  auto state_of = [&](const std::string& table) {
    for (const auto& m : ann.log) {
      if (m.value("type", "") == "table_state" && m.value("table", "") == table) return m;
    }
    return json();
  };
  CHECK(state_of(rated_bot).value("rated", json()) == json(true));
  CHECK_FALSE(state_of(with_bot).contains("rated"));
  CHECK_FALSE(state_of(with_bot).is_null());
  const json board4 = get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200);
  REQUIRE(rating_of(board4, "bot:robot"));
  CHECK((*rating_of(board4, "bot:robot"))["bot"] == true);
  CHECK((*rating_of(board4, "bot:robot"))["name"] == "robot (bot)");
  CHECK((*rating_of(board4, ann.player_id))["games"] == 2);
  const json bot_profile = get_json(ts.port(), "/api/players/bot%3Arobot", 200);
  CHECK(bot_profile["ratings"].size() == 1);

  // rated: false between people: nobody moves.
  play_table({&ann, &bob}, 2, {{"rated", false}}, 5);
  const json board5 = get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200);
  CHECK((*rating_of(board5, ann.player_id))["games"] == 2);
  CHECK((*rating_of(board5, bob.player_id))["games"] == 2);

  // One seat: the solo table, never a rating.
  play_table({&bob}, 1, json::object(), 6);
  play_table({&bob}, 1, json::object(), 7);
  const json board6 = get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200);
  REQUIRE(board6["solo"].size() == 1);
  CHECK(board6["solo"][0]["player_id"] == bob.player_id);
  CHECK(board6["solo"][0]["games"] == 2);
  CHECK((*rating_of(board6, bob.player_id))["games"] == 2);

  // The profile: ratings per game, the solo record, recent games with replays;
  // no card anywhere (fake-trick cards are X0, X1, ...).
  const json profile = get_json(ts.port(), "/api/players/" + bob.player_id, 200);
  CHECK(profile["name"] == "bob");
  REQUIRE(profile["ratings"].size() == 1);
  CHECK(profile["ratings"][0]["game"] == "fake-trick");
  REQUIRE(profile["solo"].size() == 1);
  CHECK(profile["solo"][0]["games"] == 2);
  REQUIRE(profile["recent"].size() == 5);
  int rated_games = 0;
  for (const auto& g : profile["recent"]) {
    rated_games += g["rated"].get<bool>();
    const json replay = get_json(ts.port(), g["replay"].get<std::string>(), 200);
    CHECK(replay["table"] == g["table"]);
  }
  CHECK(rated_games == 2);
  std::vector<std::string> strings;
  collect_strings(profile, strings);
  for (const auto& s : strings) CHECK_FALSE(std::regex_match(s, std::regex("X[0-9]+")));
  get_json(ts.port(), "/api/players/nosuch", 404);
  get_json(ts.port(), "/api/players/bot%3Anosuch", 404);

  // Bad input: rated belongs to create_table, and must be a boolean.
  CHECK(create(ann,
               {{"game", "fake-trick"}, {"players", 2}, {"options", {{"rated", true}}}})["code"] ==
        "bad_option");
  CHECK(create(ann, {{"game", "fake-trick"}, {"players", 2}, {"rated", "yes"}})["type"] == "error");
}

TEST_CASE("Ratings: partners move on their side's result; rebuilding gives identical numbers") {
  TestServer ts;
  std::vector<std::unique_ptr<WsClient>> people;
  for (const char* name : {"ann", "bob", "cat", "dan", "eve"}) {
    people.push_back(std::make_unique<WsClient>(ts.port()));
    people.back()->hello(name);
  }
  auto p = [&](std::size_t i) { return people[i].get(); };
  // A partnership game first (fake-trick with 4 seats plays [[0,2],[1,3]]),
  // then a mix, so ratings differ and the order matters.
  play_table({p(0), p(1), p(2), p(3)}, 4, json::object(), 11);
  {
    const json board = get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200);
    REQUIRE(board["ratings"].size() == 4);
    // Fresh partners move alike: seats 0 and 2 together, 1 and 3 together.
    CHECK((*rating_of(board, p(0)->player_id))["rating"] ==
          (*rating_of(board, p(2)->player_id))["rating"]);
    CHECK((*rating_of(board, p(1)->player_id))["rating"] ==
          (*rating_of(board, p(3)->player_id))["rating"]);
  }
  play_table({p(0), p(4)}, 2, json::object(), 12);
  play_table({p(3), p(1), p(4), p(0)}, 4, json::object(), 13);
  play_table({p(2), p(3), p(4)}, 3, json::object(), 14);
  play_table({p(1), p(2)}, 2, json::object(), 15);

  const json before = get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200)["ratings"];
  REQUIRE(before.size() == 5);
  std::map<std::string, json> profiles;
  for (const auto& person : people) {
    profiles[person->player_id] = get_json(ts.port(), "/api/players/" + person->player_id, 200);
  }
  const std::string db_path = ts.config.db;
  ts.server.reset();

  // Spoil the stored ratings, then rebuild them from the results alone.
  {
    server::Db db(db_path, false);
    db.exec("UPDATE ratings SET rating = 0, deviation = 1, volatility = 1, games = 99");
    db.exec("DELETE FROM rating_changes");
  }
  {
    server::Store store(db_path);
    CHECK(store.rebuild_ratings() == 5);
  }
  ts.start();
  const json after = get_json(ts.port(), "/api/leaderboard?game=fake-trick", 200)["ratings"];
  CHECK(after == before);  // every double, bit for bit (JSON prints 17 digits)
  for (const auto& person : people) {
    CHECK(get_json(ts.port(), "/api/players/" + person->player_id, 200) ==
          profiles[person->player_id]);
  }
}
