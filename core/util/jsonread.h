// JsonRead: the two helpers every from_json of the worker protocol and the run's JSON shares:
// read a member only when it is there (an absent member keeps its default, so older and newer
// peers understand each other), and refuse malformed input with nlohmann's own exception type,
// which the callers already turn into "malformed request: ..." sentences.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace cuwb::jsonread {

[[noreturn]] inline void malformed(const nlohmann::json &where, const std::string &what)
{
    throw nlohmann::json::other_error::create(501, what, &where);
}

// A number as the integer type T. nlohmann converts with a bare static_cast, which wraps an
// integer that does not fit (99999999999 as an int reads as 1215752191) and is undefined
// behaviour for a float that does not fit (1e300 as an int, -1.0 as unsigned) or NaN; such a
// value is malformed here, named as written. A float that fits is truncated, as nlohmann does.
template <typename T> T integerFrom(const nlohmann::json &value)
{
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
    const auto outOfRange = [&] {
        malformed(value, "the number " + value.dump() + " is out of range (" +
                             std::to_string(std::numeric_limits<T>::min()) + " to " +
                             std::to_string(std::numeric_limits<T>::max()) + ")");
    };
    if (value.is_number_unsigned()) {
        if (!std::in_range<T>(value.get<std::uint64_t>()))
            outOfRange();
    } else if (value.is_number_integer()) {
        if (!std::in_range<T>(value.get<std::int64_t>()))
            outOfRange();
    } else if (value.is_number_float()) {
        const double number = value.get<double>();
        const double limit = std::ldexp(1.0, std::numeric_limits<T>::digits); // max + 1
        const double lowest = std::is_signed_v<T> ? -limit : 0.0;
        if (!(std::trunc(number) >= lowest && number < limit)) // NaN fails too
            outOfRange();
    }
    return value.get<T>();
}

template <typename T> void readIfPresent(const nlohmann::json &j, const char *key, T &value)
{
    if (const auto it = j.find(key); it != j.end()) {
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
            value = integerFrom<T>(*it);
        else
            it->get_to(value);
    }
}

} // namespace cuwb::jsonread
