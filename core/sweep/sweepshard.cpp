#include "sweep/sweepshard.h"

#include "sweep/sweepjson.h"
#include "util/format.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace cuwb {

namespace {

std::optional<int> parsePositive(std::string_view text)
{
    int value = 0;
    const char *end = text.data() + text.size();
    const auto [last, code] = std::from_chars(text.data(), end, value);
    if (text.empty() || code != std::errc() || last != end || value < 1) {
        return std::nullopt;
    }
    return value;
}

std::string shardName(int index, int count)
{
    return "shard " + std::to_string(index) + " of " + std::to_string(count);
}

// The first field in which two shards' sweeps differ, as "their source hashes differ (a, b)";
// empty when they are shards of one sweep.
std::string sweepDifference(const SweepResult &a, const SweepResult &b)
{
    const auto differ = [](const char *what, const std::string &x, const std::string &y) {
        return x == y ? std::string()
                      : std::string("their ") + what + " differ ('" + x + "' and '" + y + "')";
    };
    if (std::string d = differ("projects", a.projectName, b.projectName); !d.empty()) {
        return d;
    }
    if (std::string d = differ("kernels", a.kernel, b.kernel); !d.empty()) {
        return d;
    }
    if (std::string d = differ("source hashes", a.sourceHash, b.sourceHash); !d.empty()) {
        return d;
    }
    if (std::string d = differ("devices", a.deviceName, b.deviceName); !d.empty()) {
        return d;
    }
    if (nlohmann::json(a.spec) != nlohmann::json(b.spec)) {
        return "their sweep specs differ (axes, constraints or settings)";
    }
    if (a.shard->count != b.shard->count) {
        return "one is split into " + std::to_string(a.shard->count) + " shards, the other into " +
               std::to_string(b.shard->count);
    }
    if (a.shard->totalPoints != b.shard->totalPoints) {
        return "one sweep has " + std::to_string(a.shard->totalPoints) + " points, the other " +
               std::to_string(b.shard->totalPoints);
    }
    return {};
}

} // namespace

std::optional<ShardSelection> parseShardSelection(std::string_view text, std::string &error)
{
    const std::size_t slash = text.find('/');
    const std::optional<int> index =
        slash == std::string_view::npos ? std::nullopt : parsePositive(text.substr(0, slash));
    const std::optional<int> count =
        slash == std::string_view::npos ? std::nullopt : parsePositive(text.substr(slash + 1));
    if (!index || !count || *index > *count) {
        error =
            "--shard needs K/N with 1 <= K <= N (shard K of N), got '" + std::string(text) + "'";
        return std::nullopt;
    }
    if (*count > kMaxShards) {
        error = "--shard: at most " + std::to_string(kMaxShards) + " shards, got " +
                std::to_string(*count);
        return std::nullopt;
    }
    return ShardSelection{*index, *count};
}

bool inShard(std::size_t pointIndex, const ShardSelection &shard)
{
    return pointIndex % std::size_t(shard.count) == std::size_t(shard.index - 1);
}

std::size_t shardSize(std::size_t totalPoints, const ShardSelection &shard)
{
    const std::size_t first = std::size_t(shard.index - 1);
    return totalPoints > first ? (totalPoints - first - 1) / std::size_t(shard.count) + 1 : 0;
}

namespace {

// The shards by their index, when they are shards of one sweep, each given once and none
// missing; else why not.
std::map<int, const ShardInput *> shardsByIndex(const std::vector<ShardInput> &shards,
                                                std::string &error)
{
    for (const ShardInput &input : shards) {
        if (!input.result.shard) {
            error = input.name + " is a whole sweep, not a shard (it was written without --shard); "
                                 "there is nothing to merge it with";
            return {};
        }
    }
    const ShardInput &first = shards.front();
    const int count = first.result.shard->count;
    std::map<int, const ShardInput *> byIndex;
    for (const ShardInput &input : shards) {
        if (const std::string difference = sweepDifference(first.result, input.result);
            !difference.empty()) {
            error = first.name + " and " + input.name +
                    " are shards of different sweeps: " + difference;
            return {};
        }
        const int index = input.result.shard->index;
        const auto [it, added] = byIndex.emplace(index, &input);
        if (!added) {
            error = shardName(index, count) + " is given twice: " + it->second->name + " and " +
                    input.name;
            return {};
        }
    }
    std::string missing;
    std::size_t missingCount = 0;
    for (int index = 1; index <= count; ++index) {
        if (!byIndex.count(index)) {
            missing += (missing.empty() ? "" : ", ") + std::to_string(index);
            ++missingCount;
        }
    }
    if (missingCount > 0) {
        error = (missingCount == 1
                     ? "shard " + missing + " of " + std::to_string(count) + " is missing"
                     : "shards " + missing + " of " + std::to_string(count) + " are missing") +
                "; give every shard's result (" + std::to_string(shards.size()) + " of " +
                std::to_string(count) + " given)";
        return {};
    }
    return byIndex;
}

// What a merged sweep takes from one shard besides its points: the device, the peaks, the
// earliest start, the longest wall time, cancellation, errors and notes.
void mergeShardSummary(SweepResult &result, const SweepResult &shard, const std::string &name)
{
    if (!result.device && shard.device) {
        result.device = shard.device;
    }
    if (!result.theoreticalPeakGBps) {
        result.theoreticalPeakGBps = shard.theoreticalPeakGBps;
    }
    if (!result.copyCeilingGBps) {
        result.copyCeilingGBps = shard.copyCeilingGBps;
    }
    if (result.startedAt.empty() ||
        (!shard.startedAt.empty() && shard.startedAt < result.startedAt)) {
        result.startedAt = shard.startedAt; // ISO 8601 in UTC sorts as text
    }
    result.wallSeconds = std::max(result.wallSeconds, shard.wallSeconds);
    result.cancelled = result.cancelled || shard.cancelled;
    if (!shard.error.empty()) {
        result.error += (result.error.empty() ? "" : "; ") + name + ": " + shard.error;
    }
    for (const std::string &note : shard.notes) {
        if (std::find(result.notes.begin(), result.notes.end(), note) == result.notes.end()) {
            result.notes.push_back(note);
        }
    }
}

} // namespace

SweepMerge mergeSweepShards(const std::vector<ShardInput> &shards)
{
    SweepMerge merge;
    if (shards.empty()) {
        merge.error = "no shard given";
        return merge;
    }
    const std::map<int, const ShardInput *> byIndex = shardsByIndex(shards, merge.error);
    if (byIndex.empty()) {
        return merge;
    }
    const ShardInput &first = shards.front();
    const int count = first.result.shard->count;
    const std::size_t total = first.result.shard->totalPoints;
    SweepResult result;
    result.formatVersion = first.result.formatVersion;
    result.projectName = first.result.projectName;
    result.kernel = first.result.kernel;
    result.sourceHash = first.result.sourceHash;
    result.deviceName = first.result.deviceName;
    result.spec = first.result.spec;
    std::vector<const SweepPointResult *> points(total, nullptr);
    double sumSeconds = 0.0;
    for (const auto &[index, input] : byIndex) {
        const SweepResult &shard = input->result;
        const ShardSelection selection{index, count};
        for (const SweepPointResult &point : shard.points) {
            const std::size_t at = point.point.index;
            if (at >= total || !inShard(at, selection) || points[at] != nullptr) {
                merge.error = input->name + ": point " + std::to_string(at) +
                              " does not belong to " + shardName(index, count) + " of a " +
                              std::to_string(total) + "-point sweep; was the file edited?";
                return merge;
            }
            points[at] = &point;
        }
        if (shard.points.size() != shardSize(total, selection)) {
            merge.error = input->name + ": " + shardName(index, count) + " holds " +
                          std::to_string(shard.points.size()) + " points, expected " +
                          std::to_string(shardSize(total, selection)) + "; was the file edited?";
            return merge;
        }
        mergeShardSummary(result, shard, shardName(index, count));
        sumSeconds += shard.wallSeconds;
    }
    result.points.reserve(total);
    for (const SweepPointResult *point : points) {
        result.points.push_back(*point);
    }
    result.notes.push_back("merged from " + std::to_string(count) +
                           " shards run side by side; the wall time is the longest shard's (" +
                           formatDuration(result.wallSeconds) + "; " + formatDuration(sumSeconds) +
                           " for all shards together)");
    merge.result = std::move(result);
    return merge;
}

} // namespace cuwb
