# Installing cucpu as the machine's CUDA driver: `cmake --install build` (default prefix
# /usr/local) puts libcuda.so.1, libcudart.so.13, libnvrtc.so.13, libnvJitLink.so.13 and the math
# libraries (libcublas.so.13, libcublasLt.so.13, libcusparse.so.12, libcusolver.so.12, libcufft.so.12,
# libcufftw.so.12, libcurand.so.10) in the library
# directory the dynamic loader searches (/usr/local/lib is in Debian's ld.so.conf; run
# ldconfig after), and the cucpu command in bin. Then a program finds cucpu without
# `cucpu run`, as it would find NVIDIA's driver. No development links (libcuda.so): builds
# keep linking against the toolkit's stubs.
# `cpack -G DEB` (in the build folder) makes the same into a Debian package whose
# maintainer scripts run ldconfig.
install(TARGETS cucpu_libcuda cudart cucpu_nvrtc cucpu_nvjitlink cucpu_cublas cucpu_curand cucpu_cublaslt cucpu_cusparse cucpu_cusolver cucpu_cufft cucpu_cufftw LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_SKIP)
install(TARGETS cucpu RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The terms of the third-party code and data the libraries hold (the Sobol numbers' licence asks
# binary distributions to carry it).
install(FILES ${PROJECT_SOURCE_DIR}/docs/third-party-notices.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME cucpu)
set(CPACK_PACKAGE_VENDOR "cucpu")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "CUDA for CPUs: libcuda.so.1, libcudart.so.13 and libnvrtc.so.13 that run CUDA programs on the host's cores")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "cucpu developers")
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
# The shared libraries cucpu's own link against (Debian 12's names).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libllvm19, libzstd1, libboost-context1.74.0, libfmt9, libstdc++6, libc6, libopenblas0, libmetis5")
# It provides the driver NVIDIA's packages would; it cannot sit beside them.
set(CPACK_DEBIAN_PACKAGE_CONFLICTS "libcuda1, libnvidia-compute-580")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${PROJECT_SOURCE_DIR}/cmake/debian/triggers")
set(CPACK_GENERATOR DEB)
include(CPack)
