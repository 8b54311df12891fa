// The CLI compiles in its own process (unlike the GUI, which uses `cuwb compile-server`): a
// source that crashes NVRTC (a pasted 100,000-character identifier corrupts its heap) ends the
// command. Nothing unsaved is lost there, but the user should learn why from a sentence rather
// than from "Aborted": this installs fatal-signal handlers that say so, then let the signal
// end the process as before (the exit status still tells which signal it was).
#pragma once

namespace cuwb::cli {

// command: for the message ("compile", "check").
void explainCompilerCrashes(const char *command);

} // namespace cuwb::cli
