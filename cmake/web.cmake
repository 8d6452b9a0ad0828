# The browser build (IMPULSE_WEB): Debian's emscripten has its own sysroot, so the header-only
# libraries the engine and the course use (Eigen, toml++, nlohmann/json) are taken from Debian's
# /usr/include through a folder of links to exactly those three, never the whole of /usr/include
# (whose C library headers would shadow emscripten's). No OpenMP (single-threaded), no CUDA, and no
# tinyxml2 or Qhull (their parts stay out; lib/web/native_only.cpp says so in one line).
set(IMPULSE_CUDA OFF)
# One statically linked module: position-independent code would only add indirections.
set(CMAKE_POSITION_INDEPENDENT_CODE OFF)
set(IMPULSE_WITH_CUDA OFF)
set(IMPULSE_TESTS OFF)
set(IMPULSE_PYTHON OFF)
set(web_inc ${PROJECT_BINARY_DIR}/web-include)
file(MAKE_DIRECTORY ${web_inc})
foreach(pair "eigen3/Eigen:Eigen" "toml++:toml++" "nlohmann:nlohmann")
  string(REPLACE ":" ";" parts ${pair})
  list(GET parts 0 from)
  list(GET parts 1 to)
  if(NOT EXISTS /usr/include/${from})
    message(FATAL_ERROR "the browser build needs /usr/include/${from} (Debian: libeigen3-dev, libtomlplusplus-dev, nlohmann-json3-dev)")
  endif()
  file(CREATE_LINK /usr/include/${from} ${web_inc}/${to} SYMBOLIC)
endforeach()
foreach(t Eigen3::Eigen tomlplusplus::tomlplusplus nlohmann_json::nlohmann_json)
  add_library(${t} INTERFACE IMPORTED)
  target_include_directories(${t} SYSTEM INTERFACE ${web_inc})
endforeach()
# Exceptions carry every one-line message of the engine and the course. They are WebAssembly's own
# (-fwasm-exceptions, at compile and link time), not emscripten's JavaScript emulation
# (-fexceptions), under which every call that may unwind through a destructor leaves the module
# through an invoke_* trampoline in JavaScript. Measured in headless Chromium, fastest of 5
# interleaved runs of e3-pyramid --steps 4500: 3900 steps/s with -fexceptions, 9950 with
# -fwasm-exceptions, native 7900-10000 (the Measurements page measures it at every book build).
# The module is smaller too: 3.26 MB against 3.69. CPU launches are plain loops without OpenMP.
add_compile_options(-fwasm-exceptions -Wno-unknown-pragmas)
add_link_options(-fwasm-exceptions)
