# Compiler flags shared by every kiln target.

find_program(KILN_CCACHE ccache)
if(KILN_CCACHE)
  set(CMAKE_C_COMPILER_LAUNCHER ${KILN_CCACHE})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${KILN_CCACHE})
endif()

add_compile_options(-Wall -Wextra -Wno-unused-parameter)
if(KILN_WERROR)
  add_compile_options(-Werror)
endif()

if(KILN_SANITIZER STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(KILN_SANITIZER STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT KILN_SANITIZER STREQUAL "")
  message(FATAL_ERROR "KILN_SANITIZER must be '', 'address' or 'thread', got '${KILN_SANITIZER}'")
endif()

# Fuzz builds (preset "fuzz"): every target gets libFuzzer's coverage instrumentation, so
# the libraries a fuzzer exercises guide it; only fuzzer executables link libFuzzer's main
# (-fsanitize=fuzzer, tests/fuzz/CMakeLists.txt). Other executables still link: the
# sanitizer runtime provides the coverage callbacks.
if(KILN_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "KILN_BUILD_FUZZERS needs clang (libFuzzer), got ${CMAKE_CXX_COMPILER_ID}; "
                        "configure with the 'fuzz' preset (clang-22)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# kiln_library(name SRCS ... DEPS ...): a static library whose include root is the repo root,
# so headers are included as "base/status.h", "hal/buffer.h".
function(kiln_library name)
  cmake_parse_arguments(ARG "" "" "SRCS;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SRCS})
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# Hand-written kernels built as ELF shared objects against hal/abi/executable_abi.h, the way
# the compiler's executables are; they land in build/lib/kernels/NAME.so.
set(KILN_KERNEL_DIR ${CMAKE_BINARY_DIR}/lib/kernels)
function(kiln_kernel_library name)
  cmake_parse_arguments(ARG "" "" "SRCS;DEFINES" ${ARGN})
  add_library(${name} MODULE ${ARG_SRCS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${name} PRIVATE ${ARG_DEFINES})
  target_compile_options(${name} PRIVATE -O3 -fvisibility=hidden)
  set_target_properties(${name} PROPERTIES PREFIX "" LIBRARY_OUTPUT_DIRECTORY ${KILN_KERNEL_DIR})
endfunction()
