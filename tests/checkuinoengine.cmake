# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a file under ui/ calls the engine's models directly instead of the evaluation facade
# (core/evaluation/scenarioevaluation.h): panels draw, core computes. Result types may still be named.
file(GLOB_RECURSE files "${UI_DIR}/*.h" "${UI_DIR}/*.cpp")
set(offenders "")
foreach(file IN LISTS files)
  file(STRINGS "${file}" lines REGEX "(estimateStepTime|evaluateMemory|pipelineSummary|simulatePipeline|EfficiencyTable)")
  if(lines)
    list(APPEND offenders "${file}: ${lines}")
  endif()
endforeach()
list(LENGTH files count)
if(count EQUAL 0)
  message(FATAL_ERROR "no files found under ${UI_DIR}")
endif()
if(offenders)
  message(FATAL_ERROR "ui/ must call the evaluation facade, not the engine's models:\n${offenders}")
endif()
message(STATUS "checked ${count} files under ui/: no direct engine calls")
