# cucpu_nvcc_program(TARGET SOURCE OUTPUT FLAGS...): compile a CUDA program with nvcc the
# way a user does (the flags given, plus any `// NVCC-FLAGS: ...` line in the source),
# as a build step: the programs that the examples and end-to-end tests run.
function(cucpu_nvcc_program target source output)
  file(STRINGS ${source} extra REGEX "^// NVCC-FLAGS: ")
  list(TRANSFORM extra REPLACE "^// NVCC-FLAGS: " "")
  separate_arguments(extra UNIX_COMMAND "${extra}")
  string(JOIN " " shown ${ARGN} ${extra})
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} ${ARGN} ${extra} -o ${output} ${source}
    DEPENDS ${source}
    COMMENT "nvcc ${shown} ${source}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${output})
endfunction()
