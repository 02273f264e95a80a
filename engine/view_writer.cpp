// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/view_writer.h"

namespace casa {

void ViewWriter::value(const Value& v) {
  if (v.is_null()) {
    null();
  } else if (v.is_bool()) {
    boolean(v.as_bool());
  } else if (v.is_int()) {
    integer(v.as_int());
  } else if (v.is_string()) {
    string(v.as_string());
  } else if (v.is_array()) {
    begin_array(v.as_array().size());
    for (const auto& item : v.as_array()) value(item);
    end_array();
  } else {
    begin_object(v.as_object().size());
    for (const auto& [name, item] : v.as_object()) {
      key(name);
      value(item);
    }
    end_object();
  }
}

void ValueWriter::begin_object(std::size_t size_hint) {
  open_.push_back({Value::object(size_hint), {}});
}

void ValueWriter::begin_array(std::size_t size_hint) {
  open_.push_back({Value::array(size_hint), {}});
}

void ValueWriter::put(Value v) {
  if (open_.empty()) {
    result_ = std::move(v);
    return;
  }
  Open& top = open_.back();
  if (top.value.is_object()) {
    top.value.add(std::move(top.key), std::move(v));
  } else {
    top.value.push(std::move(v));
  }
}

void ValueWriter::close() {
  Value done = std::move(open_.back().value);
  open_.pop_back();
  put(std::move(done));
}

}  // namespace casa
