# cucpu_forwarding_library(TARGET OUTPUT_NAME NVIDIA_LIBRARY TABLE OURS SOURCES...): a library
# that stands in front of NVIDIA's NVIDIA_LIBRARY (same soname, same version node): every
# function NVIDIA's exports jumps to NVIDIA's through a trampoline generated from its export
# list (scripts/gen_forwarders.py; slot i of the hidden table TABLE, which SOURCES fill at
# load), except the ones SOURCES define themselves (OURS, comma-separated).
function(cucpu_forwarding_library target output_name nvidia_library table ours)
  set(trampolines ${CMAKE_CURRENT_BINARY_DIR}/${target}_trampolines.S)
  set(forwarded ${CMAKE_CURRENT_BINARY_DIR}/${target}_forwarded.inc)
  set(version_script ${CMAKE_CURRENT_BINARY_DIR}/${target}.map)
  add_custom_command(
    OUTPUT ${trampolines} ${forwarded} ${version_script}
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/gen_forwarders.py ${nvidia_library} ${table}
            ${ours} ${trampolines} ${forwarded} ${version_script}
    DEPENDS ${PROJECT_SOURCE_DIR}/scripts/gen_forwarders.py ${nvidia_library}
    COMMENT "Generating ${output_name}'s forwarders to NVIDIA's")
  add_library(${target}_objects OBJECT ${ARGN} ${PROJECT_SOURCE_DIR}/src/libs/forwarding/nvidia_library.cpp ${forwarded})
  target_include_directories(${target}_objects PRIVATE ${CMAKE_CURRENT_BINARY_DIR} ${PROJECT_SOURCE_DIR}/src)
  target_compile_definitions(${target}_objects PRIVATE CUCPU_FORWARDED_INC="${target}_forwarded.inc")
  set_target_properties(${target}_objects PROPERTIES CXX_VISIBILITY_PRESET default)  # the version script decides
  cucpu_warnings(${target}_objects)
  add_library(${target} SHARED ${trampolines} $<TARGET_OBJECTS:${target}_objects>)
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${output_name}
    VERSION 13 SOVERSION 13
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
    LINK_DEPENDS ${version_script})
  target_link_options(${target} PRIVATE -Wl,--version-script=${version_script} -Wl,--no-undefined)
  target_link_libraries(${target} PRIVATE dl)
endfunction()
