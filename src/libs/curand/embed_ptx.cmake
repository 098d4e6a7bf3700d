# cmake -DINPUT=file.ptx -DOUTPUT=file.cpp -P embed_ptx.cmake: the PTX as a C string,
# cucpu_curand_transform_ptx (transforms.cpp loads it).
file(READ ${INPUT} ptx)
file(WRITE ${OUTPUT} "extern const char cucpu_curand_transform_ptx[];\nconst char cucpu_curand_transform_ptx[] = R\"cucpu_ptx(${ptx})cucpu_ptx\";\n")
