# Fails when a feature folder of app/gui includes the internals of another feature. Every
# folder of app/gui is a feature except the shell (the window that hosts the features) and
# automation (the screenshot runners that drive the whole window). A feature may include its
# own headers, the shared pieces of common/, the shared editor views of editor/ and the
# Workspace and ToolHost (workspace/: the open project's state, which every feature observes,
# and what the window offers a feature that plugs itself in); the other
# edges that exist are listed here, each with its reason, so that a new one is a decision
# rather than an accident (docs/architecture.md, "Inside the GUI").
cmake_policy(SET CMP0057 NEW) # if(... IN_LIST ...) in a script
set(_hosts shell automation)
set(_shared common editor workspace)
# "feature>other": feature may include other's headers.
set(_allowed
    # The Launch dock opens the measure options dialog for the Measure button.
    "launch>measure"
    # The roofline chart is a view the Measurement dock and the sweep results both show.
    "measure>roofline" "sweep>roofline"
    # A comparison measures each side through the run controller, and compares two sweep points.
    "compare>run" "compare>sweep"
    # Inspect sends its request through the window's run controller (gui/workspace/toolhost.h).
    "inspect>run"
    # A comparison's instruction mix comes from the Inspect tool's SASS listing.
    "compare>inspect"
    # A lesson's experiment runs the sweep through the Sweep tool and takes its measurement from
    # the run controller; the history records both and opens a stored sweep in the Sweep dock.
    "lesson>sweep" "lesson>run" "history>sweep" "history>run"
    # A measurement is taken through the window's run controller.
    "measure>run")
file(GLOB _folders LIST_DIRECTORIES true RELATIVE ${GUI_DIR} ${GUI_DIR}/*)
set(_bad "")
foreach(_folder IN LISTS _folders)
    if(NOT IS_DIRECTORY ${GUI_DIR}/${_folder} OR _folder IN_LIST _hosts)
        continue()
    endif()
    file(GLOB_RECURSE _files ${GUI_DIR}/${_folder}/*.h ${GUI_DIR}/${_folder}/*.cpp)
    foreach(_file IN LISTS _files)
        file(STRINGS ${_file} _includes REGEX "^#[ \t]*include[ \t]*\"gui/[a-z]+/")
        foreach(_include IN LISTS _includes)
            string(REGEX REPLACE "^#[ \t]*include[ \t]*\"gui/([a-z]+)/.*" "\\1" _target
                "${_include}")
            if(_target STREQUAL _folder OR _target IN_LIST _shared
               OR "${_folder}>${_target}" IN_LIST _allowed)
                continue()
            endif()
            file(RELATIVE_PATH _name ${GUI_DIR} ${_file})
            if(_target IN_LIST _hosts)
                list(APPEND _bad "app/gui/${_name}: ${_include} (a feature does not name its host)")
            else()
                list(APPEND _bad "app/gui/${_name}: ${_include} (${_folder} includes ${_target}'s internals)")
            endif()
        endforeach()
    endforeach()
endforeach()
if(_bad)
    string(REPLACE ";" "\n" _bad "${_bad}")
    message(FATAL_ERROR "app/gui features include each other:\n${_bad}")
endif()
message(STATUS "app/gui's features include only themselves, common/, editor/ and the listed edges")
