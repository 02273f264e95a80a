// SPDX-License-Identifier: AGPL-3.0-or-later
#include "protocol/messages.h"

#include <array>
#include <limits>
#include <type_traits>

#include "protocol/schema.h"
#include "protocol/value_json.h"

namespace casa::protocol {

namespace {

constexpr std::array kClientTypes = {"hello",    "create_table", "list_tables", "join",
                                     "leave",    "spectate",     "add_bot",     "action",
                                     "chat",     "rematch",      "resync",      "ping",
                                     "create_event", "accept_invitation", "decline_invitation",
                                     "invite_friend", "decline_table_invitation", "my_tables"};

constexpr int kMaxDepth = 32;

}  // namespace

bool is_client_type(std::string_view type) {
  for (const auto* t : kClientTypes) {
    if (type == t) return true;
  }
  return false;
}

// Deeply nested JSON is never a valid message; refusing it early keeps the
// recursive parts (Value conversion, destruction) off thin ice.
static bool too_deep(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxDepth) return true;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return false;
}

namespace {

// A reader of the plain JSON subset parse_action takes. Every refusal means
// "not the plain form", never "malformed": parse_client has the last word.
class PlainReader {
 public:
  explicit PlainReader(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }
  bool at_end() {
    skip_space();
    return p_ == end_;
  }
  bool take(char c) {
    skip_space();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool peek(char c) {
    skip_space();
    return p_ != end_ && *p_ == c;
  }

  // A string of printable ASCII without escapes (JSON and UTF-8 need no check).
  bool string(std::string_view& out) {
    if (!take('"')) return false;
    const char* start = p_;
    while (p_ != end_ && *p_ != '"') {
      const auto c = static_cast<unsigned char>(*p_);
      if (c < 0x20 || c > 0x7E || c == '\\') return false;
      ++p_;
    }
    if (p_ == end_) return false;
    out = std::string_view(start, static_cast<std::size_t>(p_ - start));
    ++p_;
    return true;
  }

  // An integer of at most 18 digits (so it fits in int64 whatever its sign),
  // no fraction or exponent, no leading zero.
  bool integer(std::int64_t& out) {
    skip_space();
    const bool negative = p_ != end_ && *p_ == '-';
    if (negative) ++p_;
    const char* start = p_;
    std::int64_t n = 0;
    // Digits past the 18th are skipped, not added: the number is refused below,
    // and adding them would overflow.
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
      if (p_ - start < 18) n = n * 10 + (*p_ - '0');
      ++p_;
    }
    const auto digits = p_ - start;
    if (digits == 0 || digits > 18 || (digits > 1 && *start == '0')) return false;
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;
    out = negative ? -n : n;
    return true;
  }

  bool literal(std::string_view word) {
    skip_space();
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  // Any value of the subset, as from_json would give it: object members in
  // key order (nlohmann_json keeps objects sorted), no duplicate key.
  bool value(Value& out, int depth) {
    if (depth > 8) return false;
    skip_space();
    if (p_ == end_) return false;
    switch (*p_) {
      case '"': {
        std::string_view s;
        if (!string(s)) return false;
        out = Value(s);
        return true;
      }
      case '{': {
        ++p_;
        out = Value::object();
        auto& members = out.as_object();
        if (take('}')) return true;
        do {
          std::string_view key;
          if (!string(key) || !take(':')) return false;
          Value item;
          if (!value(item, depth + 1)) return false;
          auto at = members.begin();
          while (at != members.end() && std::string_view(at->first) < key) ++at;
          if (at != members.end() && at->first == key) return false;
          members.emplace(at, std::string(key), std::move(item));
        } while (take(','));
        return take('}');
      }
      case '[': {
        ++p_;
        out = Value::array();
        if (take(']')) return true;
        do {
          Value item;
          if (!value(item, depth + 1)) return false;
          out.push(std::move(item));
        } while (take(','));
        return take(']');
      }
      case 't': out = Value(true); return literal("true");
      case 'f': out = Value(false); return literal("false");
      case 'n': out = Value(); return literal("null");
      default: {
        std::int64_t n = 0;
        if (!integer(n)) return false;
        out = Value(n);
        return true;
      }
    }
  }

 private:
  const char* p_;
  const char* end_;
};

}  // namespace


// The members and limits below are those of client/action.json and the
// definitions it refers to (common.json: table_id, seq, engine_value, id);
// the protocol tests compare this reader with parse_client on the same texts.
bool parse_action(std::string_view text, ActionMessage& out, std::optional<json>& id_out) {
  PlainReader in(text);
  id_out.reset();
  if (!in.take('{')) return false;
  bool has_type = false, has_table = false, has_seq = false, has_action = false, has_id = false;
  do {
    std::string_view key;
    if (!in.string(key) || !in.take(':')) return false;
    if (key == "type") {
      std::string_view type;
      if (has_type || !in.string(type) || type != "action") return false;
      has_type = true;
    } else if (key == "table") {
      std::string_view table;
      if (has_table || !in.string(table) || table.empty() || table.size() > 32) return false;
      out.at.table.assign(table);
      has_table = true;
    } else if (key == "seq") {
      if (has_seq || !in.integer(out.seq) || out.seq < 0) return false;
      has_seq = true;
    } else if (key == "action") {
      if (has_action || !in.peek('{') || !in.value(out.action, 1)) return false;
      const Value* type = out.action.find("type");
      if (type == nullptr || !type->is_string()) return false;
      has_action = true;
    } else if (key == "id") {
      if (has_id) return false;
      if (in.peek('"')) {
        std::string_view id;
        if (!in.string(id) || id.size() > 64) return false;
        id_out = json(std::string(id));
      } else {
        // As nlohmann_json reads it: signed when written with a minus (even
        // -0), unsigned otherwise.
        const bool minus = in.peek('-');
        std::int64_t id = 0;
        if (!in.integer(id)) return false;
        id_out = minus ? json(id) : json(static_cast<std::uint64_t>(id));
      }
      has_id = true;
    } else {
      return false;
    }
  } while (in.take(','));
  if (!(in.take('}') && in.at_end() && has_type && has_table && has_seq && has_action)) return false;
  out.at.invite.clear();
  return true;
}


// ---- the typed form of a frame its schema accepted ------------------------------

namespace {

// The schema guarantees each member's JSON type, so the reads below cannot
// fail; they convert exactly as the server always read these members.
std::string string_or_empty(const json& body, const char* key) {
  const auto it = body.find(key);
  return it == body.end() ? std::string() : it->get<std::string>();
}

// The schema checks that a number is integral ("integer" also takes 1e20 or
// 3.0), not that it fits: these read it clamped to the C++ type's range, so an
// out-of-range value is refused later like any other wrong one (an unknown
// version, a seat that does not exist) instead of being an undefined conversion.
template <typename Int>
Int clamped(const json& v) {
  constexpr Int lo = std::numeric_limits<Int>::min(), hi = std::numeric_limits<Int>::max();
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    return u > static_cast<std::uint64_t>(hi) ? hi : static_cast<Int>(u);
  }
  if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    if constexpr (std::is_signed_v<Int>) {
      if (i < static_cast<std::int64_t>(lo)) return lo;
      if (i > static_cast<std::int64_t>(hi)) return hi;
      return static_cast<Int>(i);
    } else {
      return i < 0 ? lo : static_cast<Int>(i);
    }
  }
  const double d = v.get<double>();
  if (!(d > static_cast<double>(lo))) return lo;  // NaN cannot come from JSON; lo if it did
  if (d >= static_cast<double>(hi)) return hi;
  return static_cast<Int>(d);
}

TableRef table_ref(const json& body) { return {string_or_empty(body, "table"), string_or_empty(body, "invite")}; }

std::vector<EventMember> members_of(const json& row) {
  std::vector<EventMember> out;
  out.reserve(row.size());
  for (const auto& m : row) out.push_back({m.value("player_id", ""), m.value("bot", "")});
  return out;
}

ClientMessage typed(const std::string& type, json& body) {
  if (type == "action") {
    // The engine value is built from the tree without copying it first.
    return ActionMessage{table_ref(body), clamped<std::int64_t>(body["seq"]), json_to_value(body["action"])};
  }
  if (type == "hello") {
    Hello m;
    m.version = clamped<int>(body["version"]);
    if (auto it = body.find("name"); it != body.end()) m.name = it->get<std::string>();
    if (auto it = body.find("token"); it != body.end()) m.token = it->get<std::string>();
    if (auto it = body.find("features"); it != body.end()) m.features = it->get<std::vector<std::string>>();
    return m;
  }
  if (type == "ping") return Ping{};
  if (type == "create_table") {
    CreateTable m;
    m.game = body["game"].get<std::string>();
    m.players = clamped<int>(body["players"]);
    if (auto it = body.find("options"); it != body.end()) m.options = std::move(*it);
    m.is_private = body.value("private", false);
    if (auto it = body.find("rated"); it != body.end()) m.rated = it->get<bool>();
    m.seat = body.value("seat", 0);
    m.move_timeout_seconds = body.value("move_timeout_seconds", 0);
    m.correspondence = body.value("correspondence", false);
    if (auto it = body.find("disconnect_policy"); it != body.end()) {
      DisconnectPolicy policy;
      if (auto g = it->find("grace_seconds"); g != it->end()) policy.grace_seconds = clamped<int>(*g);
      if (auto t = it->find("takeover"); t != it->end()) policy.takeover = t->get<std::string>();
      m.disconnect_policy = std::move(policy);
    }
    if (auto it = body.find("seed"); it != body.end()) m.seed = clamped<std::uint64_t>(*it);
    return m;
  }
  if (type == "list_tables") return ListTables{string_or_empty(body, "game")};
  if (type == "my_tables") return MyTables{};
  if (type == "join") {
    Join m{table_ref(body), std::nullopt};
    if (auto it = body.find("seat"); it != body.end()) m.seat = clamped<int>(*it);
    return m;
  }
  if (type == "spectate") return Spectate{table_ref(body), body.value("history", false)};
  if (type == "leave") return Leave{table_ref(body)};
  if (type == "add_bot") return AddBot{table_ref(body), clamped<int>(body["seat"]), body["bot"].get<std::string>()};
  if (type == "chat") return Chat{table_ref(body), body["text"].get<std::string>(), body.value("team", false)};
  if (type == "rematch") return Rematch{table_ref(body)};
  if (type == "resync") return Resync{table_ref(body), body.value("history", false)};
  if (type == "create_event") {
    CreateEvent m;
    m.game = body["game"].get<std::string>();
    m.players = clamped<int>(body["players"]);
    if (auto it = body.find("options"); it != body.end()) m.options = std::move(*it);
    m.boards = body.value("boards", 1);
    m.rated = body.value("rated", false);
    if (auto it = body.find("seeds"); it != body.end()) m.seeds = it->get<std::vector<std::uint64_t>>();
    for (const auto& s : body["sides"]) {
      EventSide side;
      if (auto it = s.find("name"); it != s.end()) side.name = it->get<std::string>();
      if (auto it = s.find("members"); it != s.end()) side.members = members_of(*it);
      if (auto it = s.find("tables"); it != s.end()) {
        side.tables.emplace();
        for (const auto& row : *it) side.tables->push_back(members_of(row));
      }
      m.sides.push_back(std::move(side));
    }
    return m;
  }
  if (type == "invite_friend") return InviteFriend{table_ref(body), body["handle"].get<std::string>()};
  if (type == "decline_table_invitation") return DeclineTableInvitation{body["invitation"].get<std::string>()};
  // accept_invitation or decline_invitation: is_client_type let no other through.
  return AnswerInvitation{body["invitation"].get<std::string>(), type == "accept_invitation"};
}

}  // namespace

std::optional<Refusal> parse_client(std::string_view text, ClientFrame& out) {
  // The message a game sends most, read without a JSON tree when it is in
  // the plain form; anything else is read, checked and typed by the tree.
  // Read in place: nothing of the action is copied or moved afterwards.
  if (parse_action(text, out.message.emplace<ActionMessage>(), out.id)) return std::nullopt;
  return parse_client_tree(text, out);
}

std::optional<Refusal> parse_client_tree(std::string_view text, ClientFrame& out) {
  out.id.reset();
  if (too_deep(text)) return Refusal{"malformed_json", "The message is nested too deeply."};
  json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) {
    return Refusal{"malformed_json", "A message must be one JSON object."};
  }
  if (const auto id = body.find("id"); id != body.end()) {
    if ((id->is_string() && id->get_ref<const std::string&>().size() <= 64) ||
        id->is_number_integer()) {
      out.id = *id;
    }
  }
  const auto type = body.find("type");
  if (type == body.end() || !type->is_string()) {
    return Refusal{"bad_field", "Every message needs a string field \"type\"."};
  }
  const std::string name = type->get<std::string>();
  if (!is_client_type(name)) return Refusal{"unknown_type", "There is no message type '" + name + "'."};
  if (auto why = protocol_schemas().validate("client/" + name + ".json", body)) {
    return Refusal{"bad_field", "Bad " + name + " message: " + *why};
  }
  out.message = typed(name, body);
  return std::nullopt;
}

std::string_view type_of(const ClientMessage& message) {
  struct Name {
    std::string_view operator()(const Hello&) const { return "hello"; }
    std::string_view operator()(const Ping&) const { return "ping"; }
    std::string_view operator()(const CreateTable&) const { return "create_table"; }
    std::string_view operator()(const ListTables&) const { return "list_tables"; }
    std::string_view operator()(const MyTables&) const { return "my_tables"; }
    std::string_view operator()(const Join&) const { return "join"; }
    std::string_view operator()(const Spectate&) const { return "spectate"; }
    std::string_view operator()(const Leave&) const { return "leave"; }
    std::string_view operator()(const AddBot&) const { return "add_bot"; }
    std::string_view operator()(const ActionMessage&) const { return "action"; }
    std::string_view operator()(const Chat&) const { return "chat"; }
    std::string_view operator()(const Rematch&) const { return "rematch"; }
    std::string_view operator()(const Resync&) const { return "resync"; }
    std::string_view operator()(const CreateEvent&) const { return "create_event"; }
    std::string_view operator()(const AnswerInvitation& m) const {
      return m.accept ? "accept_invitation" : "decline_invitation";
    }
    std::string_view operator()(const InviteFriend&) const { return "invite_friend"; }
    std::string_view operator()(const DeclineTableInvitation&) const { return "decline_table_invitation"; }
  };
  return std::visit(Name{}, message);
}

namespace {

void put_ref(json& out, const TableRef& at) {
  if (!at.table.empty()) out["table"] = at.table;
  if (!at.invite.empty()) out["invite"] = at.invite;
}

json members_json(const std::vector<EventMember>& row) {
  json out = json::array();
  for (const auto& m : row) {
    json member = json::object();
    if (!m.player_id.empty()) member["player_id"] = m.player_id;
    if (!m.bot.empty()) member["bot"] = m.bot;
    out.push_back(std::move(member));
  }
  return out;
}

struct Writer {
  json& out;
  void operator()(const Hello& m) const {
    out["version"] = m.version;
    if (m.name) out["name"] = *m.name;
    if (m.token) out["token"] = *m.token;
    if (m.features) out["features"] = *m.features;
  }
  void operator()(const Ping&) const {}
  void operator()(const CreateTable& m) const {
    out["game"] = m.game;
    out["players"] = m.players;
    out["options"] = m.options;
    out["private"] = m.is_private;
    if (m.rated) out["rated"] = *m.rated;
    out["seat"] = m.seat;
    out["move_timeout_seconds"] = m.move_timeout_seconds;
    if (m.correspondence) out["correspondence"] = true;
    if (m.disconnect_policy) {
      json policy = json::object();
      if (m.disconnect_policy->grace_seconds) policy["grace_seconds"] = *m.disconnect_policy->grace_seconds;
      if (m.disconnect_policy->takeover) policy["takeover"] = *m.disconnect_policy->takeover;
      out["disconnect_policy"] = std::move(policy);
    }
    if (m.seed) out["seed"] = *m.seed;
  }
  void operator()(const MyTables&) const {}
  void operator()(const ListTables& m) const {
    if (!m.game.empty()) out["game"] = m.game;
  }
  void operator()(const Join& m) const {
    put_ref(out, m.at);
    if (m.seat) out["seat"] = *m.seat;
  }
  void operator()(const Spectate& m) const {
    put_ref(out, m.at);
    out["history"] = m.history;
  }
  void operator()(const Leave& m) const { put_ref(out, m.at); }
  void operator()(const AddBot& m) const {
    put_ref(out, m.at);
    out["seat"] = m.seat;
    out["bot"] = m.bot;
  }
  void operator()(const ActionMessage& m) const {
    put_ref(out, m.at);
    out["seq"] = m.seq;
    out["action"] = value_to_json(m.action);
  }
  void operator()(const Chat& m) const {
    put_ref(out, m.at);
    out["text"] = m.text;
    out["team"] = m.team;
  }
  void operator()(const Rematch& m) const { put_ref(out, m.at); }
  void operator()(const Resync& m) const {
    put_ref(out, m.at);
    out["history"] = m.history;
  }
  void operator()(const CreateEvent& m) const {
    out["game"] = m.game;
    out["players"] = m.players;
    out["options"] = m.options;
    out["boards"] = m.boards;
    out["rated"] = m.rated;
    if (m.seeds) out["seeds"] = *m.seeds;
    json sides = json::array();
    for (const auto& s : m.sides) {
      json side = json::object();
      if (s.name) side["name"] = *s.name;
      if (s.members) side["members"] = members_json(*s.members);
      if (s.tables) {
        side["tables"] = json::array();
        for (const auto& row : *s.tables) side["tables"].push_back(members_json(row));
      }
      sides.push_back(std::move(side));
    }
    out["sides"] = std::move(sides);
  }
  void operator()(const AnswerInvitation& m) const { out["invitation"] = m.invitation; }
  void operator()(const InviteFriend& m) const {
    put_ref(out, m.at);
    out["handle"] = m.handle;
  }
  void operator()(const DeclineTableInvitation& m) const { out["invitation"] = m.invitation; }
};

}  // namespace

json to_json(const ClientFrame& frame) {
  json out = {{"type", type_of(frame.message)}};
  std::visit(Writer{out}, frame.message);
  if (frame.id) out["id"] = *frame.id;
  return out;
}

}  // namespace casa::protocol
