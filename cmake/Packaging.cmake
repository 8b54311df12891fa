# Installation and the Debian package (docs/install.md).
#
# `cmake --install BUILD --prefix PREFIX` puts the two programs in PREFIX/bin, the samples in
# PREFIX/share/cuda-workbench/samples (where the window and the lessons look for them), the
# desktop entry, its icon and the AppStream metainfo where desktops find them, and the README
# and docs in PREFIX/share/doc/cuda-workbench. `cpack -G DEB` in the build folder (or
# `./workbench package`) builds a .deb whose dependencies dpkg-shlibdeps computes from the
# programs themselves; the CUDA toolkit's NVRTC is not a Debian package, so the programs keep
# a run path to the toolkit's library folder they were linked against instead.
include(GNUInstallDirs)
set(CUWB_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/cuda-workbench) # the package's name, not the project's

set(CUWB_APP_ID io.github.cudaworkbench.CudaWorkbench)

install(TARGETS cuwb RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET cuda-workbench)
    install(TARGETS cuda-workbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    install(FILES ${PROJECT_SOURCE_DIR}/resources/linux/${CUWB_APP_ID}.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/linux/${CUWB_APP_ID}.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/app.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
        RENAME ${CUWB_APP_ID}.svg)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/samples/
    DESTINATION ${CMAKE_INSTALL_DATADIR}/cuda-workbench/samples)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CUWB_DOCDIR})
# The guides and their figures; docs/results (the evidence behind them) stays in the source.
file(GLOB _cuwb_docs ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${_cuwb_docs} DESTINATION ${CUWB_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/images DESTINATION ${CUWB_DOCDIR})

set(CPACK_PACKAGE_NAME cuda-workbench)
set(CPACK_PACKAGE_VENDOR "CUDA Workbench")
set(CPACK_PACKAGE_CONTACT "CUDA Workbench developers <cuda-workbench@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Write, run, verify and profile CUDA kernels")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "An editor that compiles CUDA kernels with NVRTC as you type, runs them on buffers\n"
    "you describe in an isolated worker, verifies their output and measures them with\n"
    "CUPTI; and cuwb, the same engine on the command line. Needs the CUDA toolkit's\n"
    "NVRTC (CUDA 13) in /usr/local/cuda and, to run kernels, an NVIDIA driver.")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libnvrtc comes from the toolkit, not from a package: dpkg-shlibdeps treats it as private.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CUDAToolkit_LIBRARY_DIR})
# The one dependency the libraries cannot tell: the fonts the editor and the offscreen
# screenshots are drawn with.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core")
set(CPACK_STRIP_FILES ON)
include(CPack)
