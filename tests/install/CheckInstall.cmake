# The installed layout (cmake/Packaging.cmake), checked as a user meets it: install the build
# into a staging prefix, then run the installed programs from there.
#   cmake -DBUILD_DIR=... -DSTAGE=... [-DWITH_GUI=ON] -P CheckInstall.cmake
cmake_minimum_required(VERSION 3.25)

function(fail message)
    message(FATAL_ERROR "installed layout: ${message}")
endfunction()

file(REMOVE_RECURSE "${STAGE}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${STAGE}"
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    fail("cmake --install failed (${rc}): ${err}")
endif()

set(app io.github.cudaworkbench.CudaWorkbench)
set(expected
    bin/cuwb
    share/cuda-workbench/samples/vector_add/vector_add.cuwb
    share/cuda-workbench/samples/vector_add/vector_add.cu
    share/cuda-workbench/samples/matmul/lesson.md
    share/doc/cuda-workbench/README.md
    share/doc/cuda-workbench/architecture.md)
if(WITH_GUI)
    list(APPEND expected bin/cuda-workbench
        share/applications/${app}.desktop
        share/metainfo/${app}.metainfo.xml
        share/icons/hicolor/scalable/apps/${app}.svg)
endif()
foreach(path IN LISTS expected)
    if(NOT EXISTS "${STAGE}/${path}")
        fail("${path} is missing from the staging prefix")
    endif()
endforeach()

# The programs run from the prefix: no run path into the build tree.
find_program(READELF readelf)
if(READELF)
    execute_process(COMMAND "${READELF}" -d "${STAGE}/bin/cuwb" OUTPUT_VARIABLE dynamic)
    string(FIND "${dynamic}" "${BUILD_DIR}" inBuild)
    if(NOT inBuild EQUAL -1)
        fail("the installed cuwb has a run path into the build tree:\n${dynamic}")
    endif()
endif()

execute_process(COMMAND "${STAGE}/bin/cuwb" --version
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^cuwb [0-9]+\\.[0-9]+\\.[0-9]+")
    fail("installed cuwb --version: exit ${rc}: ${out}${err}")
endif()
# The installed samples check against the compile-only machine's rules.
execute_process(COMMAND "${STAGE}/bin/cuwb" check
        "${STAGE}/share/cuda-workbench/samples/vector_add/vector_add.cuwb"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    fail("installed cuwb check of the installed vector_add sample: exit ${rc}: ${out}${err}")
endif()

if(WITH_GUI)
    set(png "${STAGE}/screenshot.png")
    execute_process(
        COMMAND "${CMAKE_COMMAND}" -E env QT_QPA_PLATFORM=offscreen
            "${STAGE}/bin/cuda-workbench" --size 1024x700 --screenshot "${png}"
            "${STAGE}/share/cuda-workbench/samples/vector_add/vector_add.cu"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${png}")
        fail("the installed cuda-workbench made no screenshot: exit ${rc}: ${out}${err}")
    endif()
    file(SIZE "${png}" size)
    if(size LESS 20000)
        fail("the installed cuda-workbench's screenshot is ${size} bytes: an empty window?")
    endif()
endif()
message(STATUS "installed layout: ${STAGE} holds the programs, samples and docs, and they run")
