// The native module the loader fuzzer registers ("fuzz.*"), so that fuzzed modules whose
// imports match can create a context and call out; the seed corpus imports these.
#pragma once

#include <span>
#include <string_view>

#include "vm/native_module.h"

namespace kiln::vm::fuzz {

inline constexpr std::string_view kNativeModuleName = "fuzz";

class FuzzNativeModule final : public NativeModule {
 public:
  std::string_view name() const override { return kNativeModuleName; }
  std::span<const NativeFunction> functions() const override {
    static const NativeFunction kFunctions[] = {
        // echo(x) -> x
        {"echo", "i:i", [](void*, NativeCall& call) {
           call.results[0].bits = call.args[0].bits;
           return OkStatus();
         }},
        {"echo64", "I:I", [](void*, NativeCall& call) {
           call.results[0].bits = call.args[0].bits;
           return OkStatus();
         }},
        {"ref", "r:r", [](void*, NativeCall& call) {
           call.results[0].ref = call.args[0].ref;
           return OkStatus();
         }},
        // fails with the given code when it is not zero.
        {"fail", "i:", [](void*, NativeCall& call) -> Status {
           if (call.args[0].i32() != 0) return InvalidArgumentError("fuzz.fail(", call.args[0].i32(), ")");
           return OkStatus();
         }},
        // sum(x, ys...) -> x + sum(ys): a variadic import.
        {"sum", "i[i]:i", [](void*, NativeCall& call) {
           uint32_t sum = 0;
           for (const Value& v : call.args) sum += static_cast<uint32_t>(v.bits);
           call.results[0].bits = sum;
           return OkStatus();
         }},
    };
    return kFunctions;
  }
};

}  // namespace kiln::vm::fuzz
