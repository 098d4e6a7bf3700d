# cucpu_nvcc_program(TARGET SOURCE OUTPUT FLAGS...): compile a CUDA program with nvcc the
# way a user does (the flags given, plus any `// NVCC-FLAGS: ...` line in the source, plus
# the further sources of `// NVCC-ALSO: ...` lines, relative to the source's folder), as a
# build step: the programs that the examples and end-to-end tests run.
function(cucpu_nvcc_program target source output)
  file(STRINGS ${source} extra REGEX "^// NVCC-FLAGS: ")
  list(TRANSFORM extra REPLACE "^// NVCC-FLAGS: " "")
  separate_arguments(extra UNIX_COMMAND "${extra}")
  get_filename_component(source_dir ${source} DIRECTORY)
  file(STRINGS ${source} also REGEX "^// NVCC-ALSO: ")
  list(TRANSFORM also REPLACE "^// NVCC-ALSO: " "${source_dir}/")
  string(JOIN " " shown ${ARGN} ${extra})
  file(GLOB local_headers ${source_dir}/*.h)  # the program's own headers beside it
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} ${ARGN} ${extra} -o ${output} ${source} ${also}
    DEPENDS ${source} ${also} ${local_headers}
    COMMENT "nvcc ${shown} ${source}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${output})
endfunction()

# cucpu_gpu_compared_tests(PREFIX [EXPECTED_DIR DIR] [PROPERTIES PROP VALUE...] [COMPARATOR CMD...]
#                          [NEEDS_LOCKSTEP]):
# every NAME.cu in the current source folder is built with `nvcc -cudart shared -arch=sm_90`
# and run under cucpu as the test PREFIX.NAME, which passes when the program exits 0 and its
# stdout equals DIR/NAME.out (DIR: expected/ beside the sources) byte for byte: the output a
# real GPU printed (tests/e2e/take-expected-on-gpu.sh). With COMPARATOR, `CMD EXPECTED ACTUAL`
# decides instead (tests/isa/compare.py). PROPERTIES are set on every test (DISABLED, LABELS).
# PREFIX.NAME runs with CUCPU_BLOCK_STRATEGY=compiled (as cucpu chooses, but a kernel the
# compiled strategy takes on and then fails to build fails the test rather than running on
# fibers unseen). Each also runs under the fiber strategy as PREFIX.NAME.fibers
# (CUCPU_BLOCK_STRATEGY=fibers): both strategies must print the GPU's output. NEEDS_LOCKSTEP
# leaves that out for programs whose output depends on warps in lockstep, which only the
# compiled block strategy gives.
function(cucpu_gpu_compared_tests prefix)
  cmake_parse_arguments(arg "NEEDS_LOCKSTEP" "EXPECTED_DIR" "COMPARATOR;PROPERTIES" ${ARGN})
  set(compare_with)
  if(arg_COMPARATOR)
    string(JOIN " " comparator ${arg_COMPARATOR})
    set(compare_with --comparator "${comparator}")
  endif()
  set(expected_dir ${CMAKE_CURRENT_SOURCE_DIR}/expected)
  if(arg_EXPECTED_DIR)
    set(expected_dir ${arg_EXPECTED_DIR})
  endif()
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cu)
  foreach(source ${sources})
    get_filename_component(name ${source} NAME_WE)
    cucpu_nvcc_program(${prefix}_${name} ${source} ${CMAKE_CURRENT_BINARY_DIR}/${name} -cudart shared -arch=sm_90)
    # A new program is built but not yet a test until its GPU output has been taken.
    if(NOT EXISTS ${expected_dir}/${name}.out)
      message(STATUS "${prefix}.${name}: no ${name}.out from a GPU in ${expected_dir} yet, not a test")
      continue()
    endif()
    set(tests ${prefix}.${name})
    if(NOT arg_NEEDS_LOCKSTEP)
      list(APPEND tests ${prefix}.${name}.fibers)
    endif()
    foreach(test ${tests})
      add_test(NAME ${test}
               COMMAND ${PROJECT_SOURCE_DIR}/tests/e2e/run_and_compare.sh ${compare_with} $<TARGET_FILE:cucpu>
                       ${expected_dir}/${name}.out ${CMAKE_CURRENT_BINARY_DIR}/${name})
      if(arg_PROPERTIES)
        set_tests_properties(${test} PROPERTIES ${arg_PROPERTIES})
      endif()
    endforeach()
    set_tests_properties(${prefix}.${name} PROPERTIES ENVIRONMENT_MODIFICATION CUCPU_BLOCK_STRATEGY=set:compiled)
    if(NOT arg_NEEDS_LOCKSTEP)
      set_tests_properties(${prefix}.${name}.fibers PROPERTIES ENVIRONMENT_MODIFICATION CUCPU_BLOCK_STRATEGY=set:fibers)
    endif()
  endforeach()
endfunction()

# cucpu_tests_use_build_cache(): the tests defined so far in the current folder keep the
# JIT's disk cache in the build tree (CUCPU_CACHE_DIR), not in the user's home: a test run
# then neither fills ~/.cache/cucpu nor depends on what is in it. Call it at the end of
# each folder whose tests run programs under cucpu.
function(cucpu_tests_use_build_cache)
  get_property(tests DIRECTORY PROPERTY TESTS)
  if(tests)
    set_property(TEST ${tests} APPEND PROPERTY ENVIRONMENT CUCPU_CACHE_DIR=${PROJECT_BINARY_DIR}/test-jit-cache)
  endif()
endfunction()
