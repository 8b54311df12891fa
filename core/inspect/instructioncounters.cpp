#include "inspect/instructioncounters.h"

namespace cuwb {

std::vector<std::string> defaultInspectMetrics()
{
    return {
        "smsp__sass_inst_executed",
        "smsp__sass_thread_inst_executed",
        "smsp__sass_thread_inst_executed_pred_on",
        "smsp__sass_inst_executed_op_global",
        "smsp__sass_inst_executed_op_global_st",
        "smsp__sass_l1tex_tags_mem_global",
        "smsp__sass_sectors_mem_global",
        "smsp__sass_sectors_mem_global_ideal",
        "smsp__sass_inst_executed_op_shared",
        "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
        "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
        "smsp__sass_inst_executed_op_local",
        "smsp__sass_sectors_mem_local",
        "smsp__sass_branch_targets_threads_divergent",
        "smsp__sass_branch_targets_threads_uniform",
    };
}

} // namespace cuwb
