// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/ops/handles.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>
#include <unicode/utf16.h>

#include <memory>
#include <mutex>

namespace casa::server {
namespace {

// One spoof checker, configured once: ICU's check and skeleton functions may
// then be called from any thread at once.
const USpoofChecker* checker() {
  static USpoofChecker* sc = [] {
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker* c = uspoof_open(&status);
    // Mixed scripts beyond "moderately restrictive" (Latin with Cyrillic or
    // Greek, say), invisible characters, digits of several systems.
    uspoof_setChecks(c, USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE | USPOOF_MIXED_NUMBERS, &status);
    uspoof_setRestrictionLevel(c, USPOOF_MODERATELY_RESTRICTIVE);
    return U_SUCCESS(status) ? c : nullptr;
  }();
  return sc;
}

const icu::Normalizer2* nfkc() {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* n = icu::Normalizer2::getNFKCInstance(status);
  return U_SUCCESS(status) ? n : nullptr;
}

const icu::Normalizer2* nfkc_casefold() {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* n = icu::Normalizer2::getNFKCCasefoldInstance(status);
  return U_SUCCESS(status) ? n : nullptr;
}

// The text as UTF-16, or nullopt when `raw` is not well-formed UTF-8.
std::optional<icu::UnicodeString> decode(std::string_view raw) {
  icu::UnicodeString s = icu::UnicodeString::fromUTF8(icu::StringPiece(raw.data(), static_cast<int32_t>(raw.size())));
  std::string back;
  s.toUTF8String(back);
  if (back != raw) return std::nullopt;  // ill-formed bytes came back as U+FFFD
  return s;
}

std::string utf8(const icu::UnicodeString& s) {
  std::string out;
  s.toUTF8String(out);
  return out;
}

std::string skeleton_of(const icu::UnicodeString& folded) {
  const USpoofChecker* sc = checker();
  if (!sc) return {};
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString skeleton;
  uspoof_getSkeletonUnicodeString(sc, 0, folded, skeleton, &status);
  if (U_FAILURE(status)) return {};
  // The skeleton of a folded text may hold capitals again (its mappings go to
  // a prototype character): fold once more so that the key stays caseless.
  return utf8(skeleton.foldCase());
}

protocol::Refusal bad(std::string message) { return {"bad_handle", std::move(message)}; }

}  // namespace

HandleForm normalize_handle(std::string_view raw) {
  HandleForm form;
  const auto decoded = decode(raw);
  if (!decoded) {
    form.refusal = bad("A handle must be UTF-8 text.");
    return form;
  }
  const icu::Normalizer2* n = nfkc();
  const icu::Normalizer2* f = nfkc_casefold();
  if (!n || !f || !checker()) {
    form.refusal = protocol::Refusal{"internal", "Handles cannot be checked on this server."};
    return form;
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString display = n->normalize(*decoded, status);
  if (U_FAILURE(status)) {
    form.refusal = bad("This handle cannot be normalised.");
    return form;
  }
  const int32_t length = display.countChar32();
  if (length < kHandleMinLength || length > kHandleMaxLength) {
    form.refusal = bad("A handle is " + std::to_string(kHandleMinLength) + " to " + std::to_string(kHandleMaxLength) +
                       " characters long.");
    return form;
  }
  // Letters and digits of any script (with their combining marks), '_', '-'
  // and '.'; a letter or a digit first.
  bool first = true;
  for (int32_t i = 0; i < display.length();) {
    const UChar32 c = display.char32At(i);
    i += U16_LENGTH(c);
    const int8_t type = u_charType(c);
    const bool letter = type == U_UPPERCASE_LETTER || type == U_LOWERCASE_LETTER || type == U_TITLECASE_LETTER ||
                        type == U_MODIFIER_LETTER || type == U_OTHER_LETTER;
    const bool digit = type == U_DECIMAL_DIGIT_NUMBER;
    const bool mark = type == U_NON_SPACING_MARK || type == U_COMBINING_SPACING_MARK;
    const bool punct = c == '_' || c == '-' || c == '.';
    if (first && !letter && !digit) {
      form.refusal = bad("A handle starts with a letter or a digit.");
      return form;
    }
    if (!letter && !digit && !mark && !punct) {
      form.refusal = bad("A handle holds only letters, digits, '_', '-' and '.'.");
      return form;
    }
    first = false;
  }
  UErrorCode check_status = U_ZERO_ERROR;
  const int32_t flags = uspoof_checkUnicodeString(checker(), display, nullptr, &check_status);
  if (U_FAILURE(check_status) || flags != 0) {
    form.refusal = bad("This handle mixes scripts or digit systems, or holds invisible characters.");
    return form;
  }
  status = U_ZERO_ERROR;
  const icu::UnicodeString folded = f->normalize(display, status);
  if (U_FAILURE(status)) {
    form.refusal = bad("This handle cannot be normalised.");
    return form;
  }
  form.display = utf8(display);
  form.key = utf8(folded);
  form.skeleton = skeleton_of(folded);
  if (form.skeleton.empty()) form.refusal = bad("This handle cannot be checked for look-alikes.");
  return form;
}

std::string name_skeleton(std::string_view name) {
  const auto decoded = decode(name);
  const icu::Normalizer2* f = nfkc_casefold();
  if (!decoded || !f) return {};
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString folded = f->normalize(*decoded, status);
  if (U_FAILURE(status)) return {};
  return skeleton_of(folded);
}

}  // namespace casa::server
