//===- FloorsTargetCAPI.cpp - CPU names and vector widths from LLVM ------===//
#include "FloorsTargetCAPI.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <string>

FloorsCpuCheck floorsTargetCheckCpu(MlirStringRef triple, MlirStringRef cpu,
                                    MlirStringRef features,
                                    unsigned *vectorBits) {
  llvm::Triple tt(llvm::StringRef(triple.data, triple.length));
  llvm::StringRef cpuName(cpu.data, cpu.length);
  llvm::StringRef featureString(features.data, features.length);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(tt, error);
  if (!target)
    return FLOORS_CPU_UNKNOWN_TRIPLE;
  // The name is checked on a subtarget made without it: made with an unknown
  // CPU, LLVM prints a warning and ignores the name.
  {
    std::unique_ptr<llvm::MCSubtargetInfo> probe(
        target->createMCSubtargetInfo(tt, "", ""));
    if (!probe)
      return FLOORS_CPU_UNKNOWN_TRIPLE;
    if (cpuName.empty() || !probe->isCPUStringValid(cpuName))
      return FLOORS_CPU_UNKNOWN_CPU;
  }
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(tt, cpuName, featureString));
  if (!sti)
    return FLOORS_CPU_UNKNOWN_TRIPLE;
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
  llvm::Triple tt(llvm::StringRef(triple.data, triple.length));
  llvm::StringRef cpuName(cpu.data, cpu.length);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(tt, error);
  if (!target)
    return false;
  {
    std::unique_ptr<llvm::MCSubtargetInfo> probe(
        target->createMCSubtargetInfo(tt, "", ""));
    if (!probe || cpuName.empty() || !probe->isCPUStringValid(cpuName))
      return false;
  }
  std::unique_ptr<llvm::MCSubtargetInfo> sti(target->createMCSubtargetInfo(
      tt, cpuName, llvm::StringRef(features.data, features.length)));
  return sti && sti->checkFeatures(
                    "+" + std::string(feature.data, feature.length));
}
