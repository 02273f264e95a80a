// SPDX-License-Identifier: AGPL-3.0-or-later
// Text that one player chooses and others see (display names, an event's side
// names): normalised to NFC, trimmed, and refused when it could pass for
// someone else or rewrite what is around it (control, bidi and zero-width
// characters, empty or blank text, the names of server bots and the system).
// Also the quoting of such text in log lines, so that no name forges a line.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "protocol/protocol.h"

namespace casa::server {

// The text as it will be kept (NFC, spaces trimmed at both ends), or the
// refusal: code "bad_name", a message that says what is wrong.
// `reserved_check`: refuse the names of server bots and of the system.
struct CleanText {
  std::string text;
  std::optional<protocol::Refusal> refusal;
};
CleanText clean_display_text(std::string_view raw, bool reserved_check = true);

// True for names kept for the server itself (bots, the system), compared
// without regard to case: "robot", "random", "strong", "system", "server", ...
bool reserved_name(std::string_view nfc_name);

// `text` between double quotes, with quotes, backslashes and every byte below
// 0x20 or 0x7f escaped: safe to put in a log line whatever it holds.
std::string log_quote(std::string_view text);

}  // namespace casa::server
