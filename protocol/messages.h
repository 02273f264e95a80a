// SPDX-License-Identifier: AGPL-3.0-or-later
// The messages a client sends (docs/protocol.md, protocol/schemas/client/),
// each read once into its own struct. A frame is checked against its JSON
// Schema first, so every struct below holds only what its schema allows; the
// server reads fields from these structs, never from the JSON text again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/protocol.h"

namespace casa::protocol {

// hello: the first message of every connection.
struct Hello {
  int version = 0;
  std::optional<std::string> name;   // a new player's display name
  std::optional<std::string> token;  // resume an existing player
  std::optional<std::vector<std::string>> features;
  friend bool operator==(const Hello&, const Hello&) = default;
};

struct Ping {
  friend bool operator==(const Ping&, const Ping&) = default;
};

// create_table's "disconnect_policy"; absent members take the server's defaults.
struct DisconnectPolicy {
  std::optional<int> grace_seconds;
  std::optional<std::string> takeover;  // "robot", "strong", "none" or "forfeit"
  friend bool operator==(const DisconnectPolicy&, const DisconnectPolicy&) = default;
};

struct CreateTable {
  std::string game;
  int players = 0;
  json options = json::object();
  bool is_private = false;  // "private"
  std::optional<bool> rated;
  int seat = 0;  // -1: the creator does not sit
  int move_timeout_seconds = 0;
  std::optional<DisconnectPolicy> disconnect_policy;
  std::optional<std::uint64_t> seed;  // test servers only
  bool correspondence = false;  // docs/protocol.md, "Correspondence tables"
  friend bool operator==(const CreateTable&, const CreateTable&) = default;
};

// "Your games": the sender's unfinished tables.
struct MyTables {
  friend bool operator==(const MyTables&, const MyTables&) = default;
};

struct ListTables {
  std::string game;  // empty: every game
  friend bool operator==(const ListTables&, const ListTables&) = default;
};

// The table a table-bound message names: by its id, by its invite code, or by
// both (then the code must be that table's). Empty: not given.
struct TableRef {
  std::string table;
  std::string invite;
  friend bool operator==(const TableRef&, const TableRef&) = default;
};

struct Join {
  TableRef at;
  std::optional<int> seat;  // none: the first free seat
  friend bool operator==(const Join&, const Join&) = default;
};

struct Spectate {
  TableRef at;
  bool history = false;
  friend bool operator==(const Spectate&, const Spectate&) = default;
};

struct Leave {
  TableRef at;
  friend bool operator==(const Leave&, const Leave&) = default;
};

struct AddBot {
  TableRef at;
  int seat = 0;
  std::string bot;
  friend bool operator==(const AddBot&, const AddBot&) = default;
};

// action: a seat's answer to its request. (Named apart from casa::Action, the
// engine's decoded action, which the table makes of `action`.)
struct ActionMessage {
  TableRef at;
  std::int64_t seq = 0;
  Value action;  // as json_to_value of the message's "action"
  friend bool operator==(const ActionMessage&, const ActionMessage&) = default;
};

struct Chat {
  TableRef at;
  std::string text;
  bool team = false;
  friend bool operator==(const Chat&, const Chat&) = default;
};

struct Rematch {
  TableRef at;
  friend bool operator==(const Rematch&, const Rematch&) = default;
};

struct Resync {
  TableRef at;
  bool history = false;
  friend bool operator==(const Resync&, const Resync&) = default;
};

// One member of a duplicate event's side: a player or a bot (exactly one of
// the two is meant; the schema allows either, the event checks).
struct EventMember {
  std::string player_id;  // empty: not given
  std::string bot;        // empty: not given
  friend bool operator==(const EventMember&, const EventMember&) = default;
};

struct EventSide {
  std::optional<std::string> name;
  std::optional<std::vector<EventMember>> members;              // the same at every table
  std::optional<std::vector<std::vector<EventMember>>> tables;  // or one row per table
  friend bool operator==(const EventSide&, const EventSide&) = default;
};

struct CreateEvent {
  std::string game;
  int players = 0;
  json options = json::object();
  int boards = 1;
  bool rated = false;
  std::optional<std::vector<std::uint64_t>> seeds;  // test servers only
  std::vector<EventSide> sides;
  friend bool operator==(const CreateEvent&, const CreateEvent&) = default;
};

// accept_invitation and decline_invitation.
struct AnswerInvitation {
  std::string invitation;
  bool accept = false;
  friend bool operator==(const AnswerInvitation&, const AnswerInvitation&) = default;
};

// invite_friend: a player seated at a waiting table invites a friend to it
// (docs/accounts.md#friends).
struct InviteFriend {
  TableRef at;
  std::string handle;
  friend bool operator==(const InviteFriend&, const InviteFriend&) = default;
};

// decline_table_invitation: the invited player says no to a friend's
// invitation (accepting is joining the table).
struct DeclineTableInvitation {
  std::string invitation;
  friend bool operator==(const DeclineTableInvitation&, const DeclineTableInvitation&) = default;
};

using ClientMessage = std::variant<Hello, Ping, CreateTable, ListTables, Join, Spectate, Leave, AddBot,
                                   ActionMessage, Chat, Rematch, Resync, CreateEvent, AnswerInvitation,
                                   InviteFriend, DeclineTableInvitation, MyTables>;

// A message and its request id, echoed in the reply.
struct ClientFrame {
  ClientMessage message;
  std::optional<json> id;
};

// Reads a text frame: malformed_json, unknown_type or bad_field on failure,
// with the same codes and sentences whatever the type. `out.id` is filled in
// when the frame is an object with a usable id, even when refused, so that
// the error can carry it.
std::optional<Refusal> parse_client(std::string_view text, ClientFrame& out);

// The same without the plain-form shortcut: every frame through a JSON tree
// and its schema. parse_client answers exactly as this does (the protocol
// tests and fuzz/fuzz_protocol.cpp hold them to it).
std::optional<Refusal> parse_client_tree(std::string_view text, ClientFrame& out);

bool is_client_type(std::string_view type);

// The "type" a message has on the wire.
std::string_view type_of(const ClientMessage& message);

// The frame as a client writes it (what parse_client reads back as `frame`).
json to_json(const ClientFrame& frame);

// Reads `text` when it is an `action` message in the plain form clients send,
// without a JSON tree: ASCII strings without escapes, integers, no duplicate
// or unknown member. True only when parse_client would accept the same text
// as an `action` with these members; false (with `out` and `id` unspecified)
// for anything else. parse_client tries it first.
bool parse_action(std::string_view text, ActionMessage& out, std::optional<json>& id);

}  // namespace casa::protocol
