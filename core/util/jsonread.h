// JsonRead: the two helpers every from_json of the worker protocol and the run's JSON shares:
// read a member only when it is there (an absent member keeps its default, so older and newer
// peers understand each other), and refuse malformed input with nlohmann's own exception type,
// which the callers already turn into "malformed request: ..." sentences.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace cuwb::jsonread {

[[noreturn]] inline void malformed(const nlohmann::json &where, const std::string &what)
{
    throw nlohmann::json::other_error::create(501, what, &where);
}

template <typename T> void readIfPresent(const nlohmann::json &j, const char *key, T &value)
{
    if (const auto it = j.find(key); it != j.end()) {
        it->get_to(value);
    }
}

} // namespace cuwb::jsonread
