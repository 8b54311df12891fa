// Shards of a sweep: one sweep split over several machines (`cuwb sweep --shard K/N`, a Slurm
// job array) and the shard results merged back into one result (`cuwb merge`) that is
// identical in form to a sweep run on one machine, so charts, exports and the history take it
// unchanged. The split is round-robin by expansion index: point i belongs to shard
// i mod N + 1. Neighbouring points (a block size and the next) land on different shards, so
// slow and fast configurations spread evenly and the shards finish at about the same time;
// and the split depends only on the expanded points, so every machine computes the same one
// from the project alone. Qt-free, no GPU.
#pragma once

#include "sweep/sweep.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

// Shard `index` of `count`, 1-based ("2/4" is index 2, count 4).
struct ShardSelection
{
    int index = 1;
    int count = 1;
    bool operator==(const ShardSelection &) const = default;
};

// Above this many shards the split is refused: a typo (4000 for 4) would submit thousands of
// jobs. Slurm's own default MaxArraySize is 1001.
inline constexpr int kMaxShards = 1000;

// "K/N" with 1 <= K <= N <= kMaxShards; nullopt with `error` set otherwise ("--shard needs K/N
// with 1 <= K <= N, got '5/4'").
std::optional<ShardSelection> parseShardSelection(std::string_view text, std::string &error);

// Whether the point at `pointIndex` (expansion order) belongs to `shard`.
[[nodiscard]] bool inShard(std::size_t pointIndex, const ShardSelection &shard);
// How many of `totalPoints` points shard `shard` holds.
[[nodiscard]] std::size_t shardSize(std::size_t totalPoints, const ShardSelection &shard);

// A shard result and where it came from (a file name, for the messages).
struct ShardInput
{
    std::string name;
    SweepResult result;
};

struct SweepMerge
{
    std::optional<SweepResult> result;
    std::string error; // why the shards cannot be merged, naming the files
};

// Merges the results of every shard of one sweep (in any order) into one whole result: the
// points in expansion order, no `shard`, the earliest start, the longest shard's wall time (the
// shards ran side by side), cancelled when any shard was, each shard's error prefixed with
// its number, the notes of all shards once each and a note saying what was merged. Refused
// with the reason: no input, a whole sweep among them, shards of different sweeps (project,
// kernel, source, spec, device or shard count differ), a shard given twice, a shard missing,
// or points that do not add up to the sweep's (a shard file edited or truncated).
SweepMerge mergeSweepShards(const std::vector<ShardInput> &shards);

} // namespace cuwb
