# FloorsConfig.cmake: lets a CMake project use floors after `scripts/install.sh PREFIX`:
#
#   find_package(Floors CONFIG REQUIRED)       # with CMAKE_PREFIX_PATH=PREFIX
#   add_test(NAME t COMMAND ${FLOORS_MLIR_OPT} --load-dialect-plugin=$<TARGET_FILE:Floors::Plugin> ...)
#
# Provides
#   Floors::Plugin         imported MODULE library (libfloors_plugin.so) for mlir-opt's
#                          --load-dialect-plugin / --load-pass-plugin
#   Floors::floors         imported executable (the CLI)
#   Floors::CAPI           interface target with the C API headers (include/floors)
#   FLOORS_PLUGIN          path of the plugin
#   FLOORS_EXECUTABLE      path of the CLI
#   FLOORS_INCLUDE_DIRS    C API headers
#   FLOORS_LLVM_BIN        LLVM 22 tools the plugin was built against
#   FLOORS_MLIR_OPT, FLOORS_FILECHECK, FLOORS_LIT   tools lit tests need
#   FLOORS_LIT_CFG         floors' own lit.cfg.py (shows the substitutions:
#                          %floors-opt = mlir-opt with the plugin loaded)

get_filename_component(_floors_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

set(FLOORS_PLUGIN "${_floors_prefix}/lib/libfloors_plugin.so")
set(FLOORS_EXECUTABLE "${_floors_prefix}/bin/floors")
set(FLOORS_INCLUDE_DIRS "${_floors_prefix}/include")
set(FLOORS_LIT_CFG "${_floors_prefix}/share/floors/lit-tests/lit.cfg.py")
set(FLOORS_LLVM_BIN "/usr/lib/llvm-22/bin" CACHE PATH "LLVM 22 tools floors was built against")
set(FLOORS_MLIR_OPT "${FLOORS_LLVM_BIN}/mlir-opt")
set(FLOORS_FILECHECK "${FLOORS_LLVM_BIN}/FileCheck")
set(FLOORS_LIT "${FLOORS_LLVM_BIN}/lit")

foreach(_f IN ITEMS "${FLOORS_PLUGIN}" "${FLOORS_EXECUTABLE}" "${FLOORS_MLIR_OPT}")
  if(NOT EXISTS "${_f}")
    set(Floors_FOUND FALSE)
    set(Floors_NOT_FOUND_MESSAGE "floors: missing ${_f} (install with scripts/install.sh; LLVM 22 from scripts/setup.sh)")
    return()
  endif()
endforeach()

if(NOT TARGET Floors::Plugin)
  add_library(Floors::Plugin MODULE IMPORTED)
  set_target_properties(Floors::Plugin PROPERTIES IMPORTED_LOCATION "${FLOORS_PLUGIN}")
endif()
if(NOT TARGET Floors::floors)
  add_executable(Floors::floors IMPORTED)
  set_target_properties(Floors::floors PROPERTIES IMPORTED_LOCATION "${FLOORS_EXECUTABLE}")
endif()
if(NOT TARGET Floors::CAPI)
  add_library(Floors::CAPI INTERFACE IMPORTED)
  set_target_properties(Floors::CAPI PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${FLOORS_INCLUDE_DIRS};/usr/lib/llvm-22/include")
endif()

set(Floors_FOUND TRUE)
unset(_floors_prefix)
