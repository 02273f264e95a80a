// SPDX-License-Identifier: AGPL-3.0-or-later
// Friends and their invitations to tables (docs/accounts.md#friends): added by
// handle, friends once both ways, online and at which table (a private table
// only to whoever may reach it), and an invitation to a waiting table that
// reaches every connection of the friend, comes again at each hello, and is
// settled by joining, declining, the table starting or the inviter leaving.
#include <doctest/doctest.h>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
namespace http = boost::beast::http;

namespace {

struct Answer {
  int status = 0;
  json body;
};

Answer api(const TestServer& ts, http::verb verb, const std::string& target, const std::string& token,
           const json& body = nullptr) {
  auto [status, text] = http_call(ts.port(), verb, target, token, body.is_null() ? "" : body.dump());
  return {status, json::parse(text, nullptr, false)};
}

// A player with an account: hello as a guest, then claim the name.
void claim(const TestServer& ts, WsClient& c, const std::string& name, const std::string& password = "correct horse") {
  REQUIRE(c.hello(name)["type"] == "welcome");
  const auto a = api(ts, http::verb::post, "/api/account/claim", c.token(), {{"handle", name}, {"password", password}});
  REQUIRE_MESSAGE(a.status == 200, a.body.dump());
}

Answer add(const TestServer& ts, const WsClient& c, const std::string& handle) {
  return api(ts, http::verb::post, "/api/account/friends", c.token(), {{"handle", handle}});
}

json friends_of(const TestServer& ts, const WsClient& c) {
  const auto a = api(ts, http::verb::get, "/api/account/friends", c.token());
  REQUIRE_MESSAGE(a.status == 200, a.body.dump());
  return a.body;
}

// The entry of `handle` in a friends list (null when absent).
json entry(const json& list, const std::string& handle) {
  for (const auto& f : list["friends"]) {
    if (f["handle"] == handle) return f;
  }
  return nullptr;
}

// Makes `a` and `b` friends both ways.
void befriend(const TestServer& ts, const WsClient& a, const std::string& a_handle, const WsClient& b,
              const std::string& b_handle) {
  REQUIRE(add(ts, a, b_handle).status == 200);
  const auto back = add(ts, b, a_handle);
  REQUIRE(back.status == 200);
  REQUIRE(back.body["mutual"] == true);
}

json invite(WsClient& c, const std::string& table, const std::string& handle) {
  return c.call({{"type", "invite_friend"}, {"table", table}, {"handle", handle}});
}

// Waits for table_invitation_closed of `invitation` on `c`; returns its reason.
std::string closed_reason(WsClient& c, const std::string& invitation) {
  const auto m = c.find(
      [&](const json& m) { return m["type"] == "table_invitation_closed" && m["invitation"] == invitation; },
      std::chrono::seconds(5));
  REQUIRE_MESSAGE(m.has_value(), c.player_id << " was not told that " << invitation << " was settled");
  return (*m)["reason"];
}

}  // namespace

TEST_CASE("friends: added by handle, friends only both ways, online and at which table") {
  TestServer ts;
  WsClient anna(ts.port()), bert(ts.port()), guest(ts.port());
  claim(ts, anna, "Anna");
  claim(ts, bert, "Bert");
  REQUIRE(guest.hello("cy")["type"] == "welcome");

  // A guest has no handle: nobody can add them back, so they add no one.
  CHECK(add(ts, guest, "Anna").status == 409);
  CHECK(add(ts, guest, "Anna").body["error"] == "not_claimed");
  CHECK(api(ts, http::verb::get, "/api/account/friends", "").status == 401);

  // Any spelling of the handle; not oneself, not a handle nobody holds.
  CHECK(add(ts, anna, "Anna").body["error"] == "bad_handle");
  const auto nobody = add(ts, anna, "nobody-here");
  CHECK(nobody.status == 404);
  CHECK(nobody.body["error"] == "no_such_player");
  const auto added = add(ts, anna, "bert");
  REQUIRE(added.status == 200);
  CHECK(added.body["handle"] == "Bert");
  CHECK(added.body["mutual"] == false);
  // Not a friend yet: nothing about where they are.
  CHECK_FALSE(added.body.contains("online"));
  CHECK_FALSE(entry(friends_of(ts, anna), "Bert").contains("tables"));
  // Bert sees who added him.
  const json asking = friends_of(ts, bert);
  REQUIRE(asking["requests"].size() == 1);
  CHECK(asking["requests"][0]["handle"] == "Anna");
  CHECK(asking["friends"].empty());

  const auto back = add(ts, bert, "ANNA");
  REQUIRE(back.status == 200);
  CHECK(back.body["mutual"] == true);
  CHECK(back.body["online"] == true);
  CHECK(back.body["tables"] == json::array());
  CHECK(friends_of(ts, bert)["requests"].empty());
  // Adding again changes nothing.
  CHECK(add(ts, bert, "Anna").status == 200);
  CHECK(friends_of(ts, bert)["friends"].size() == 1);

  // Anna sits at a public table and at a private one.
  const std::string open = create(anna, {{"game", "fake-trick"}, {"players", 2}})["table"];
  const std::string hidden = create(anna, {{"game", "fake-trick"}, {"players", 2}, {"private", true}})["table"];
  json seen = entry(friends_of(ts, bert), "Anna");
  REQUIRE(seen["tables"].size() == 1);
  CHECK(seen["tables"][0]["table"] == open);
  CHECK(seen["tables"][0]["status"] == "waiting");
  CHECK(seen["tables"][0]["private"] == false);
  // The private table's id is in no answer Bert gets.
  CHECK(friends_of(ts, bert).dump().find(hidden) == std::string::npos);

  // Offline once every connection is gone.
  {
    WsClient dora(ts.port());
    claim(ts, dora, "Dora");
    befriend(ts, dora, "Dora", bert, "Bert");
    CHECK(entry(friends_of(ts, bert), "Dora")["online"] == true);
  }
  bool offline = false;
  for (int i = 0; i < 100 && !offline; ++i) {
    offline = entry(friends_of(ts, bert), "Dora")["online"] == false;
    if (!offline) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(offline);

  // Removing: once, then not a friend any more; the other side sees a request.
  const auto removed = api(ts, http::verb::delete_, "/api/account/friends/anna", bert.token());
  CHECK(removed.status == 200);
  CHECK(removed.body["removed"] == true);
  CHECK(api(ts, http::verb::delete_, "/api/account/friends/anna", bert.token()).body["error"] == "not_a_friend");
  CHECK(entry(friends_of(ts, bert), "Anna").is_null());
  CHECK(friends_of(ts, bert)["requests"].size() == 1);
  CHECK(entry(friends_of(ts, anna), "Bert")["mutual"] == false);
}

TEST_CASE("friends are kept across a restart") {
  TestServer ts;
  std::string anna_token, bert_token;
  {
    WsClient anna(ts.port()), bert(ts.port());
    claim(ts, anna, "Anna");
    claim(ts, bert, "Bert");
    befriend(ts, anna, "Anna", bert, "Bert");
    anna_token = anna.token();
    bert_token = bert.token();
  }
  ts.restart();
  const auto a = api(ts, http::verb::get, "/api/account/friends", anna_token);
  REQUIRE(a.status == 200);
  REQUIRE(a.body["friends"].size() == 1);
  CHECK(a.body["friends"][0]["handle"] == "Bert");
  CHECK(a.body["friends"][0]["mutual"] == true);
  CHECK(a.body["friends"][0]["online"] == false);
}

TEST_CASE("an invitation to a private table reaches every device of the friend, again at hello, until they join") {
  TestServer ts;
  WsClient anna(ts.port()), bert(ts.port()), cy(ts.port());
  claim(ts, anna, "Anna");
  claim(ts, bert, "Bert", "bert's password");
  claim(ts, cy, "Cyril");
  befriend(ts, anna, "Anna", bert, "Bert");
  REQUIRE(add(ts, anna, "Cyril").status == 200);  // Cyril never adds Anna back

  // Bert's second device: a session of its own.
  const auto signed_in = api(ts, http::verb::post, "/api/account/signin", "",
                             {{"handle", "bert"}, {"password", "bert's password"}, {"label", "phone"}});
  REQUIRE_MESSAGE(signed_in.status == 200, signed_in.body.dump());
  WsClient phone(ts.port());
  REQUIRE(phone.hello("", signed_in.body["token"])["player_id"] == bert.player_id);

  const json created = create(anna, {{"game", "fake-trick"}, {"players", 2}, {"private", true}});
  const std::string table = created["table"];
  const std::string code = created["invite"];

  // Only a friend both ways, and the same answer for a handle nobody holds.
  CHECK(invite(anna, table, "Cyril")["code"] == "no_such_friend");
  CHECK(invite(anna, table, "nobody-here")["code"] == "no_such_friend");
  CHECK(invite(cy, table, "Bert")["code"] == "private_table");  // Cyril cannot reach the private table

  const json sent = invite(anna, table, "bert");
  REQUIRE_MESSAGE(sent["type"] == "friend_invited", sent.dump());
  CHECK(sent["handle"] == "Bert");
  CHECK(sent["online"] == true);
  const std::string id = sent["invitation"];
  for (WsClient* device : {&bert, &phone}) {
    const json got = device->expect("table_invitation");
    CHECK(got["invitation"] == id);
    CHECK(got["table"] == table);
    CHECK(got["private"] == true);
    CHECK(got["invite"] == code);  // what lets Bert in
    CHECK(got["from"]["handle"] == "Anna");
    CHECK(got["from"]["player_id"] == anna.player_id);
    check_schemas(*device);
  }
  // Invited twice: still one invitation.
  CHECK(invite(anna, table, "Bert")["invitation"] == id);

  // A new connection of Bert's gets it again.
  WsClient laptop(ts.port());
  REQUIRE(laptop.hello("", bert.token())["type"] == "welcome");
  CHECK(laptop.expect("table_invitation")["invitation"] == id);

  // Bert joins with the code on the phone: every side is told it is settled.
  CHECK(phone.call({{"type", "join"}, {"invite", code}})["type"] == "joined");
  CHECK(closed_reason(phone, id) == "accepted");
  CHECK(closed_reason(laptop, id) == "accepted");
  CHECK(closed_reason(anna, id) == "accepted");
  // Settled: nothing comes again at the next hello, and it cannot be declined.
  WsClient later(ts.port());
  REQUIRE(later.hello("", bert.token())["type"] == "welcome");
  CHECK(later.call({{"type", "decline_table_invitation"}, {"invitation", id}})["code"] == "no_such_invitation");
  for (const auto& m : later.log) CHECK(m["type"] != "table_invitation");
  check_schemas(anna);
}

TEST_CASE("an invitation is settled when declined, when the table starts, and when the inviter leaves") {
  TestServer ts;
  WsClient anna(ts.port()), bert(ts.port());
  claim(ts, anna, "Anna");
  claim(ts, bert, "Bert");
  befriend(ts, anna, "Anna", bert, "Bert");

  const std::string table = create(anna, {{"game", "fake-trick"}, {"players", 3}})["table"];
  // Only one who sits there invites.
  CHECK(invite(bert, table, "Anna")["code"] == "not_seated");

  // Declined: only by the invited player, once.
  std::string id = invite(anna, table, "Bert")["invitation"];
  CHECK(anna.call({{"type", "decline_table_invitation"}, {"invitation", id}})["code"] == "no_such_invitation");
  const json declined = bert.call({{"type", "decline_table_invitation"}, {"invitation", id}});
  CHECK(declined["type"] == "table_invitation_closed");
  CHECK(declined["reason"] == "declined");
  CHECK(closed_reason(anna, id) == "declined");
  CHECK(bert.call({{"type", "decline_table_invitation"}, {"invitation", id}})["code"] == "no_such_invitation");

  // The table fills up and starts.
  id = invite(anna, table, "Bert")["invitation"];
  CHECK(anna.call({{"type", "add_bot"}, {"table", table}, {"seat", 1}, {"bot", "random"}})["type"] == "bot_added");
  CHECK(anna.call({{"type", "add_bot"}, {"table", table}, {"seat", 2}, {"bot", "random"}})["type"] == "bot_added");
  CHECK(closed_reason(bert, id) == "started");
  CHECK(closed_reason(anna, id) == "started");
  // A started table takes no invitation.
  CHECK(invite(anna, table, "Bert")["code"] == "table_started");

  // The one who invited leaves the waiting table.
  const std::string other = create(anna, {{"game", "fake-trick"}, {"players", 2}})["table"];
  id = invite(anna, other, "Bert")["invitation"];
  CHECK(bert.find([&](const json& m) { return m["type"] == "table_invitation" && m["invitation"] == id; },
                  std::chrono::seconds(5))
            .has_value());
  CHECK(anna.call({{"type", "leave"}, {"table", other}})["type"] == "left");
  CHECK(closed_reason(bert, id) == "left");
  check_schemas(anna);
  check_schemas(bert);
}
