//===- FloorsTargetCAPI.cpp - CPU names and vector widths from LLVM ------===//
#include "FloorsTargetCAPI.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <string>

namespace {
llvm::StringRef ref(MlirStringRef s) { return llvm::StringRef(s.data, s.length); }

/// The subtarget of (triple, cpu, features), with `*check` saying why there
/// is none.
std::unique_ptr<llvm::MCSubtargetInfo>
subtarget(const llvm::Triple &tt, llvm::StringRef cpuName,
          llvm::StringRef featureString, FloorsCpuCheck *check) {
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(tt, error);
  *check = FLOORS_CPU_UNKNOWN_TRIPLE;
  if (!target)
    return nullptr;
  // The name is checked on a subtarget made without it: made with an unknown
  // CPU, LLVM prints a warning and ignores the name.
  {
    std::unique_ptr<llvm::MCSubtargetInfo> probe(
        target->createMCSubtargetInfo(tt, "", ""));
    if (!probe)
      return nullptr;
    if (cpuName.empty() || !probe->isCPUStringValid(cpuName)) {
      *check = FLOORS_CPU_UNKNOWN_CPU;
      return nullptr;
    }
  }
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(tt, cpuName, featureString));
  if (sti)
    *check = FLOORS_CPU_OK;
  return sti;
}
} // namespace

FloorsCpuCheck floorsTargetCheckCpu(MlirStringRef triple, MlirStringRef cpu,
                                    MlirStringRef features,
                                    unsigned *vectorBits) {
  llvm::Triple tt(ref(triple));
  FloorsCpuCheck check;
  std::unique_ptr<llvm::MCSubtargetInfo> sti =
      subtarget(tt, ref(cpu), ref(features), &check);
  if (!sti)
    return check;
  unsigned bits = 128;
  if (tt.isX86()) {
    if (sti->checkFeatures("+avx512f"))
      bits = 512;
    else if (sti->checkFeatures("+avx2") || sti->checkFeatures("+avx"))
      bits = 256;
  }
  *vectorBits = bits;
  return FLOORS_CPU_OK;
}

bool floorsTargetHasFeature(MlirStringRef triple, MlirStringRef cpu,
                            MlirStringRef features, MlirStringRef feature) {
  FloorsCpuCheck check;
  std::unique_ptr<llvm::MCSubtargetInfo> sti =
      subtarget(llvm::Triple(ref(triple)), ref(cpu), ref(features), &check);
  return sti && sti->checkFeatures("+" + ref(feature).str());
}
