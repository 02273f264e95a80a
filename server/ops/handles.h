// SPDX-License-Identifier: AGPL-3.0-or-later
// Account handles (docs/accounts.md, "Handles"): what a handle may hold, the
// form two handles are compared in (NFKC case-folded), and the UTS #39
// confusable skeleton that makes look-alikes collide ("Anna" with a Cyrillic
// "а", "paypa1", "rn" for "m"). ICU does the Unicode work (normalisation,
// spoof checks, skeletons); nothing here is hand-written Unicode data.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "protocol/protocol.h"

namespace casa::server {

// Handles are this many code points long (after NFKC).
constexpr int kHandleMinLength = 3;
constexpr int kHandleMaxLength = 24;

struct HandleForm {
  std::string display;   // NFKC, as shown
  std::string key;       // NFKC case-folded: equal keys are the same handle
  std::string skeleton;  // UTS #39 skeleton of key: equal skeletons look alike
  std::optional<protocol::Refusal> refusal;  // code "bad_handle" when not a handle
};
HandleForm normalize_handle(std::string_view raw);

// The skeleton of any display name (NFKC case-folded first): two names that
// look alike have the same one. Empty for text that is not UTF-8.
std::string name_skeleton(std::string_view name);

}  // namespace casa::server
