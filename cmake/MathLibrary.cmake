# cucpu_math_library(TARGET API NVIDIA_LIBRARY SOURCES...): cucpu's own library in place of
# one of NVIDIA's math libraries (src/libs/<name>): the same soname and version node as
# NVIDIA_LIBRARY, exporting every function it exports. SOURCES implement what cucpu does;
# every other function becomes a stub that names itself on stderr and returns the API's
# "not supported" status (scripts/gen_stubs.py API). The library calls the engine in
# cucpu's libcuda.so.1 (the streams its work is ordered with), never NVIDIA's code.
set(cucpu_math_common ${PROJECT_SOURCE_DIR}/src/libs/common/stream_work.cpp
    ${PROJECT_SOURCE_DIR}/src/libs/common/missing_function.cpp)

function(cucpu_math_library target api nvidia_library)
  add_library(${target}_objects OBJECT ${ARGN} ${cucpu_math_common})
  target_include_directories(${target}_objects PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${target}_objects PRIVATE CUDA::toolkit fmt::fmt)
  set_target_properties(${target}_objects PROPERTIES CXX_VISIBILITY_PRESET default VISIBILITY_INLINES_HIDDEN ON)
  cucpu_warnings(${target}_objects)

  get_filename_component(soname ${nvidia_library} NAME)
  string(REGEX REPLACE "^lib(.*)\\.so\\.([0-9]+)$" "\\1" output_name ${soname})
  string(REGEX REPLACE "^lib(.*)\\.so\\.([0-9]+)$" "\\2" soversion ${soname})
  set(stubs ${CMAKE_CURRENT_BINARY_DIR}/${target}_stubs.cpp)
  set(version_script ${CMAKE_CURRENT_BINARY_DIR}/${target}.map)
  add_custom_command(
    OUTPUT ${stubs} ${version_script}
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/gen_stubs.py ${api} ${nvidia_library}
            ${CUDAToolkit_INCLUDE_DIRS} ${stubs} ${version_script} $<TARGET_OBJECTS:${target}_objects>
    DEPENDS ${PROJECT_SOURCE_DIR}/scripts/gen_stubs.py ${nvidia_library} $<TARGET_OBJECTS:${target}_objects>
    COMMAND_EXPAND_LISTS
    COMMENT "Generating the ${soname} entry points cucpu does not implement yet")

  add_library(${target} SHARED ${stubs} $<TARGET_OBJECTS:${target}_objects>)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${target} PRIVATE cucpu_libcuda fmt::fmt)
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET default  # the stubs; the version script decides what is exported
    OUTPUT_NAME ${output_name}
    VERSION ${soversion} SOVERSION ${soversion}
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
    BUILD_RPATH "$ORIGIN" INSTALL_RPATH "$ORIGIN"
    LINK_DEPENDS ${version_script})
  target_link_options(${target} PRIVATE -Wl,--version-script=${version_script} -Wl,--no-undefined)
endfunction()
