// The bytecode interpreter. Modules are verified at load (vm/verifier.h), so decoding here
// is unchecked: register indices, branch targets, call signatures and ordinals are known to
// be in range. What remains checked is what depends on run-time values: division by zero,
// list indices, null refs in native calls, call depth.
#include <cmath>
#include <limits>

#include "base/trace.h"
#include "vm/bytecode.h"
#include "vm/context.h"
#include "vm/module_generated.h"

namespace kiln::vm {

StatusOr<Ref<Context>> Context::Create(Ref<Module> module, std::span<NativeModule* const> natives) {
  if (!module) return InvalidArgumentError("context needs a module");
  Ref<Context> context(new Context(module));
  for (const ImportInfo& import : module->imports()) {
    const NativeFunction* found = nullptr;
    NativeModule* owner = nullptr;
    for (NativeModule* native : natives) {
      std::string_view name = import.name;
      if (name.size() <= native->name().size() + 1 || name.substr(0, native->name().size()) != native->name() ||
          name[native->name().size()] != '.') {
        continue;
      }
      std::string_view function = name.substr(native->name().size() + 1);
      for (const NativeFunction& f : native->functions()) {
        if (f.name == function) {
          found = &f;
          owner = native;
        }
      }
    }
    if (!found) {
      return NotFoundError("module '", module->name(), "' imports '", import.name,
                           "', which no registered native module provides");
    }
    if (found->signature != import.signature_text) {
      return InvalidArgumentError("module '", module->name(), "' imports '", import.name, "' with signature '",
                                  import.signature_text, "' but the runtime provides '", found->signature, "'");
    }
    context->imports_.push_back({found->fn, owner->state()});
  }
  if (std::optional<uint32_t> init = module->initializer()) {
    KILN_RETURN_IF_ERROR(context->Call(*init, {}), "while initializing the globals of module '", module->name(), "'");
  }
  return context;
}

Context::Context(Ref<Module> module) : module_(std::move(module)) {
  global_storage_.resize((module_->global_i32_slots() + 1) / 2);
  global_refs_.resize(module_->global_ref_count());
  rodata_refs_.resize(module_->def().rodata() ? module_->def().rodata()->size() : 0);
}

Context::~Context() = default;

StatusOr<std::vector<Value>> Context::Invoke(std::string_view export_name, std::span<const Value> args) {
  KILN_ASSIGN_OR_RETURN(uint32_t ordinal, module_->LookupExport(export_name));
  return Call(ordinal, args);
}

class Interpreter {
 public:
  explicit Interpreter(Context& context) : ctx_(context), module_(*context.module_) {}

  StatusOr<std::vector<Value>> Run(uint32_t function_ordinal, std::span<const Value> args);

 private:
  struct Frame {
    uint32_t function;
    uint32_t i32_base;  // in 32-bit slots (even)
    uint32_t ref_base;
    const uint8_t* return_pc;       // caller's pc after the call instruction
    const uint8_t* result_list;     // caller's result register list (count + entries)
  };

  Status PushFrame(uint32_t function, const uint8_t* return_pc, const uint8_t* result_list);
  void PopFrame();
  // Copies values between register lists with parallel-move semantics.
  void CopyList(const uint8_t* src_list, uint32_t src_i32, uint32_t src_ref, const uint8_t* dst_list,
                uint32_t dst_i32, uint32_t dst_ref);
  Status CallImport(uint32_t import, const uint8_t* args, const uint8_t* results, uint32_t i32_base,
                    uint32_t ref_base);
  Status WithBacktrace(Status status, const uint8_t* pc);
  Status Execute();

  Context& ctx_;
  const Module& module_;
  std::vector<Frame> frames_;
  std::vector<uint64_t> slots_;   // 32-bit register slots of all frames, 8-byte aligned
  std::vector<VmRef> refs_;
  std::vector<Value> scratch_args_, scratch_results_;
  std::vector<uint64_t> move_bits_;
  std::vector<VmRef> move_refs_;
  std::vector<Value> entry_results_;
  const uint8_t* pc_ = nullptr;   // current pc when an error leaves Execute
};

namespace {

uint32_t* Slots(std::vector<uint64_t>& storage) { return reinterpret_cast<uint32_t*>(storage.data()); }

inline uint64_t Get64(const uint32_t* r, uint16_t i) {
  uint64_t v;
  std::memcpy(&v, r + i, 8);
  return v;
}
inline void Set64(uint32_t* r, uint16_t i, uint64_t v) { std::memcpy(r + i, &v, 8); }
inline float AsF32(uint32_t b) { return std::bit_cast<float>(b); }
inline uint32_t FromF32(float f) { return std::bit_cast<uint32_t>(f); }
inline double AsF64(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t FromF64(double d) { return std::bit_cast<uint64_t>(d); }

template <typename To, typename From>
To SaturatingCast(From f) {
  if (std::isnan(f)) return 0;
  if (f <= static_cast<From>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
  if (f >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
  return static_cast<To>(f);
}

}  // namespace

Status Interpreter::PushFrame(uint32_t function, const uint8_t* return_pc, const uint8_t* result_list) {
  if (frames_.size() >= Context::kMaxCallDepth) {
    return ResourceExhaustedError("call depth exceeds ", Context::kMaxCallDepth, " frames (unbounded recursion?)");
  }
  const FunctionInfo& fn = module_.functions()[function];
  uint32_t i32_base = 0, ref_base = 0;
  if (!frames_.empty()) {
    const Frame& top = frames_.back();
    const FunctionInfo& caller = module_.functions()[top.function];
    i32_base = top.i32_base + ((caller.i32_register_count + 1u) & ~1u);
    ref_base = top.ref_base + caller.ref_register_count;
  }
  slots_.resize((i32_base + fn.i32_register_count + 1) / 2 + 1, 0);
  refs_.resize(ref_base + fn.ref_register_count);
  frames_.push_back({function, i32_base, ref_base, return_pc, result_list});
  return OkStatus();
}

void Interpreter::PopFrame() {
  const Frame& top = frames_.back();
  const FunctionInfo& fn = module_.functions()[top.function];
  for (uint32_t i = 0; i < fn.ref_register_count; ++i) refs_[top.ref_base + i].reset();
  frames_.pop_back();
}

void Interpreter::CopyList(const uint8_t* src_list, uint32_t src_i32, uint32_t src_ref, const uint8_t* dst_list,
                           uint32_t dst_i32, uint32_t dst_ref) {
  uint16_t count = ReadUnaligned<uint16_t>(src_list);
  move_bits_.resize(count);
  move_refs_.resize(count);
  uint32_t* r = Slots(slots_);
  for (uint16_t i = 0; i < count; ++i) {
    uint16_t e = ReadUnaligned<uint16_t>(src_list + 2 + 2 * i);
    uint16_t idx = e & kRegisterIndexMask;
    if (e & kRefRegisterBit) {
      move_refs_[i] = refs_[src_ref + idx];
    } else if (e & kPairRegisterBit) {
      move_bits_[i] = Get64(r, src_i32 + idx);
    } else {
      move_bits_[i] = r[src_i32 + idx];
    }
  }
  for (uint16_t i = 0; i < count; ++i) {
    uint16_t e = ReadUnaligned<uint16_t>(dst_list + 2 + 2 * i);
    uint16_t idx = e & kRegisterIndexMask;
    if (e & kRefRegisterBit) {
      refs_[dst_ref + idx] = std::move(move_refs_[i]);
    } else if (e & kPairRegisterBit) {
      Set64(r, dst_i32 + idx, move_bits_[i]);
    } else {
      r[dst_i32 + idx] = static_cast<uint32_t>(move_bits_[i]);
    }
  }
}

Status Interpreter::CallImport(uint32_t import, const uint8_t* args, const uint8_t* results, uint32_t i32_base,
                               uint32_t ref_base) {
  uint32_t* r = Slots(slots_);
  uint16_t arg_count = ReadUnaligned<uint16_t>(args);
  const Signature& sig = module_.imports()[import].signature;
  scratch_args_.resize(arg_count);
  for (uint16_t i = 0; i < arg_count; ++i) {
    uint16_t e = ReadUnaligned<uint16_t>(args + 2 + 2 * i);
    uint16_t idx = e & kRegisterIndexMask;
    ValueKind declared = i < sig.args.size() ? sig.args[i] : sig.variadic[(i - sig.args.size()) % sig.variadic.size()];
    Value& v = scratch_args_[i];
    v.kind = declared;
    if (e & kRefRegisterBit) {
      v.ref = refs_[ref_base + idx];
    } else {
      v.ref.reset();
      v.bits = (e & kPairRegisterBit) ? Get64(r, i32_base + idx) : r[i32_base + idx];
    }
  }
  uint16_t result_count = ReadUnaligned<uint16_t>(results);
  scratch_results_.resize(result_count);
  for (uint16_t i = 0; i < result_count; ++i) {
    scratch_results_[i].kind = sig.results[i];
    scratch_results_[i].bits = 0;
    scratch_results_[i].ref.reset();
  }
  const Context::ResolvedImport& target = ctx_.imports_[import];
  NativeCall call{ctx_, scratch_args_, scratch_results_};
  Status status;
  {
    trace::Scope scope("vm.import", module_.imports()[import].name);
    status = target.fn(target.state, call);
  }
  if (!status.ok()) return status.With("in call to '", module_.imports()[import].name, "'");
  r = Slots(slots_);
  for (uint16_t i = 0; i < result_count; ++i) {
    uint16_t e = ReadUnaligned<uint16_t>(results + 2 + 2 * i);
    uint16_t idx = e & kRegisterIndexMask;
    if (e & kRefRegisterBit) {
      refs_[ref_base + idx] = std::move(scratch_results_[i].ref);
    } else if (e & kPairRegisterBit) {
      Set64(r, i32_base + idx, scratch_results_[i].bits);
    } else {
      r[i32_base + idx] = static_cast<uint32_t>(scratch_results_[i].bits);
    }
  }
  for (Value& v : scratch_args_) v.ref.reset();
  return OkStatus();
}

Status Interpreter::WithBacktrace(Status status, const uint8_t* pc) {
  // Innermost frame first: "at f+0x1c (model.mlir:3:7)".
  for (size_t i = frames_.size(); i-- > 0;) {
    const Frame& frame = frames_[i];
    const FunctionInfo& fn = module_.functions()[frame.function];
    // pc is past the failing instruction (or the call); one byte back is inside it.
    uint32_t offset = static_cast<uint32_t>(pc - fn.code.data()) - 1;
    std::string_view loc = module_.SourceLocation(frame.function, offset);
    status = status.With("at ", module_.name(), ".", fn.name, "+", offset, loc.empty() ? "" : " (",
                         loc, loc.empty() ? "" : ")");
    pc = frame.return_pc;
  }
  return status;
}

StatusOr<std::vector<Value>> Interpreter::Run(uint32_t function_ordinal, std::span<const Value> args) {
  if (function_ordinal >= module_.functions().size()) {
    return OutOfRangeError("function ordinal ", function_ordinal, " is out of range");
  }
  const FunctionInfo& fn = module_.functions()[function_ordinal];
  auto where = [&] { return StrCat("while calling ", module_.name(), ".", fn.name); };
  if (args.size() != fn.signature.args.size()) {
    return InvalidArgumentError("expected ", fn.signature.args.size(), " arguments (", fn.signature.ToString(),
                                "), got ", args.size())
        .With(where());
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind != fn.signature.args[i]) {
      return InvalidArgumentError("argument ", i, " is ", ValueKindName(args[i].kind), " but the signature wants ",
                                  ValueKindName(fn.signature.args[i]))
          .With(where());
    }
  }
  KILN_RETURN_IF_ERROR(PushFrame(function_ordinal, nullptr, nullptr));
  uint32_t* r = Slots(slots_);
  uint32_t slot = 0, ref = 0;
  for (const Value& v : args) {
    if (v.kind == ValueKind::kRef) {
      refs_[ref++] = v.ref;
    } else if (SlotCount(v.kind) == 2) {
      slot = (slot + 1) & ~1u;
      Set64(r, slot, v.bits);
      slot += 2;
    } else {
      r[slot++] = static_cast<uint32_t>(v.bits);
    }
  }
  Status status = Execute();
  if (!status.ok()) {
    status = WithBacktrace(status, pc_);
    while (!frames_.empty()) PopFrame();
    return status.With(where());
  }
  return std::move(entry_results_);
}

// Decoding helpers over the local `pc`.
#define R8() (pc += 1, pc[-1])
#define R16() (pc += 2, ReadUnaligned<uint16_t>(pc - 2))
#define R32() (pc += 4, ReadUnaligned<uint32_t>(pc - 4))
#define R64() (pc += 8, ReadUnaligned<uint64_t>(pc - 8))

Status Interpreter::Execute() {
  static const void* kDispatch[] = {
#define KILN_OP(name, mnemonic, operands) &&op_##name,
#include "vm/opcodes.def"
#undef KILN_OP
  };
  const FunctionInfo* fn = &module_.functions()[frames_.back().function];
  const uint8_t* pc = fn->code.data();
  uint32_t* r = Slots(slots_) + frames_.back().i32_base;
  VmRef* refs = refs_.data() + frames_.back().ref_base;
  Status error;

// Re-derives the frame's register pointers after the stacks may have grown.
#define RELOAD_FRAME()                                              \
  do {                                                              \
    fn = &module_.functions()[frames_.back().function];             \
    r = Slots(slots_) + frames_.back().i32_base;                    \
    refs = refs_.data() + frames_.back().ref_base;                  \
  } while (0)
// A computed goto leaves a handler's scope without running destructors. Handlers therefore
// keep objects with destructors (Status, StatusOr, refs) in inner scopes or if-statement
// initializers that end before DISPATCH(); plain `goto fail` does run them.
#define DISPATCH() goto* kDispatch[*pc++]
#define FAIL(status_expr)     \
  do {                        \
    error = (status_expr);    \
    goto fail;                \
  } while (0)

#define BIN32(Name, expr)                                \
  op_##Name : {                                          \
    uint16_t d = R16(), a_ = R16(), b_ = R16();          \
    uint32_t a = r[a_], b = r[b_];                       \
    r[d] = static_cast<uint32_t>(expr);                  \
    DISPATCH();                                          \
  }
#define BIN64(Name, expr)                                \
  op_##Name : {                                          \
    uint16_t d = R16(), a_ = R16(), b_ = R16();          \
    uint64_t a = Get64(r, a_), b = Get64(r, b_);         \
    Set64(r, d, static_cast<uint64_t>(expr));            \
    DISPATCH();                                          \
  }
#define CMP64(Name, expr)                                \
  op_##Name : {                                          \
    uint16_t d = R16(), a_ = R16(), b_ = R16();          \
    uint64_t a = Get64(r, a_), b = Get64(r, b_);         \
    r[d] = (expr) ? 1u : 0u;                             \
    DISPATCH();                                          \
  }
#define UN32(Name, expr)                                 \
  op_##Name : {                                          \
    uint16_t d = R16(), a_ = R16();                      \
    uint32_t a = r[a_];                                  \
    r[d] = static_cast<uint32_t>(expr);                  \
    DISPATCH();                                          \
  }
#define UN64(Name, expr)                                 \
  op_##Name : {                                          \
    uint16_t d = R16(), a_ = R16();                      \
    uint64_t a = Get64(r, a_);                           \
    Set64(r, d, static_cast<uint64_t>(expr));            \
    DISPATCH();                                          \
  }
// Division by zero fails the call. Signed division wraps (INT_MIN / -1 = INT_MIN) and the
// remainder of a division by -1 is 0, computed without signed overflow.
#define DIVREM(Name, T, U, get, set, is_div)                                  \
  op_##Name : {                                                               \
    uint16_t d = R16(), a_ = R16(), b_ = R16();                               \
    U ua = static_cast<U>(get(a_)), ub = static_cast<U>(get(b_));             \
    if (ub == 0) FAIL(InvalidArgumentError("integer division by zero"));      \
    if (std::is_signed_v<T> && static_cast<T>(ub) == T(-1)) {                 \
      set(d, is_div ? U(0) - ua : U(0));                                      \
    } else {                                                                  \
      T ta = static_cast<T>(ua), tb = static_cast<T>(ub);                     \
      set(d, static_cast<U>(is_div ? ta / tb : ta % tb));                     \
    }                                                                         \
    DISPATCH();                                                               \
  }
#define GET32(i) r[i]
#define SET32(i, v) (r[i] = static_cast<uint32_t>(v))
#define GET64(i) Get64(r, i)
#define SET64(i, v) Set64(r, i, static_cast<uint64_t>(v))

  DISPATCH();

  op_ConstI32 : {
    uint16_t d = R16();
    r[d] = R32();
    DISPATCH();
  }
  op_ConstI64 : {
    uint16_t d = R16();
    Set64(r, d, R64());
    DISPATCH();
  }
  op_ConstRefNull : {
    refs[R16()].reset();
    DISPATCH();
  }
  op_MoveI32 : {
    uint16_t d = R16(), s = R16();
    r[d] = r[s];
    DISPATCH();
  }
  op_MoveI64 : {
    uint16_t d = R16(), s = R16();
    Set64(r, d, Get64(r, s));
    DISPATCH();
  }
  op_MoveRef : {
    uint16_t d = R16(), s = R16();
    refs[d] = refs[s];
    DISPATCH();
  }

  BIN32(AddI32, a + b)
  BIN32(SubI32, a - b)
  BIN32(MulI32, a * b)
  DIVREM(DivI32S, int32_t, uint32_t, GET32, SET32, true)
  DIVREM(DivI32U, uint32_t, uint32_t, GET32, SET32, true)
  DIVREM(RemI32S, int32_t, uint32_t, GET32, SET32, false)
  DIVREM(RemI32U, uint32_t, uint32_t, GET32, SET32, false)
  BIN32(AndI32, a & b)
  BIN32(OrI32, a | b)
  BIN32(XorI32, a ^ b)
  BIN32(ShlI32, a << (b & 31))
  BIN32(ShrI32S, static_cast<int32_t>(a) >> (b & 31))
  BIN32(ShrI32U, a >> (b & 31))
  BIN32(MinI32S, std::min(static_cast<int32_t>(a), static_cast<int32_t>(b)))
  BIN32(MinI32U, std::min(a, b))
  BIN32(MaxI32S, std::max(static_cast<int32_t>(a), static_cast<int32_t>(b)))
  BIN32(MaxI32U, std::max(a, b))
  UN32(NotI32, ~a)

  BIN64(AddI64, a + b)
  BIN64(SubI64, a - b)
  BIN64(MulI64, a * b)
  DIVREM(DivI64S, int64_t, uint64_t, GET64, SET64, true)
  DIVREM(DivI64U, uint64_t, uint64_t, GET64, SET64, true)
  DIVREM(RemI64S, int64_t, uint64_t, GET64, SET64, false)
  DIVREM(RemI64U, uint64_t, uint64_t, GET64, SET64, false)
  BIN64(AndI64, a & b)
  BIN64(OrI64, a | b)
  BIN64(XorI64, a ^ b)
  BIN64(ShlI64, a << (b & 63))
  BIN64(ShrI64S, static_cast<int64_t>(a) >> (b & 63))
  BIN64(ShrI64U, a >> (b & 63))
  BIN64(MinI64S, std::min(static_cast<int64_t>(a), static_cast<int64_t>(b)))
  BIN64(MinI64U, std::min(a, b))
  BIN64(MaxI64S, std::max(static_cast<int64_t>(a), static_cast<int64_t>(b)))
  BIN64(MaxI64U, std::max(a, b))

  BIN32(AddF32, FromF32(AsF32(a) + AsF32(b)))
  BIN32(SubF32, FromF32(AsF32(a) - AsF32(b)))
  BIN32(MulF32, FromF32(AsF32(a) * AsF32(b)))
  BIN32(DivF32, FromF32(AsF32(a) / AsF32(b)))
  BIN32(MinF32, FromF32(std::fmin(AsF32(a), AsF32(b))))
  BIN32(MaxF32, FromF32(std::fmax(AsF32(a), AsF32(b))))
  UN32(NegF32, a ^ 0x80000000u)
  UN32(AbsF32, a & 0x7FFFFFFFu)
  UN32(SqrtF32, FromF32(std::sqrt(AsF32(a))))
  UN32(FloorF32, FromF32(std::floor(AsF32(a))))
  UN32(CeilF32, FromF32(std::ceil(AsF32(a))))
  BIN64(AddF64, FromF64(AsF64(a) + AsF64(b)))
  BIN64(SubF64, FromF64(AsF64(a) - AsF64(b)))
  BIN64(MulF64, FromF64(AsF64(a) * AsF64(b)))
  BIN64(DivF64, FromF64(AsF64(a) / AsF64(b)))
  BIN64(MinF64, FromF64(std::fmin(AsF64(a), AsF64(b))))
  BIN64(MaxF64, FromF64(std::fmax(AsF64(a), AsF64(b))))
  UN64(NegF64, a ^ 0x8000000000000000ull)
  UN64(AbsF64, a & 0x7FFFFFFFFFFFFFFFull)
  UN64(SqrtF64, FromF64(std::sqrt(AsF64(a))))
  UN64(FloorF64, FromF64(std::floor(AsF64(a))))
  UN64(CeilF64, FromF64(std::ceil(AsF64(a))))

  BIN32(CmpEqI32, a == b)
  BIN32(CmpNeI32, a != b)
  BIN32(CmpLtI32S, static_cast<int32_t>(a) < static_cast<int32_t>(b))
  BIN32(CmpLtI32U, a < b)
  BIN32(CmpLeI32S, static_cast<int32_t>(a) <= static_cast<int32_t>(b))
  BIN32(CmpLeI32U, a <= b)
  UN32(CmpNzI32, a != 0)
  CMP64(CmpEqI64, a == b)
  CMP64(CmpNeI64, a != b)
  CMP64(CmpLtI64S, static_cast<int64_t>(a) < static_cast<int64_t>(b))
  CMP64(CmpLtI64U, a < b)
  CMP64(CmpLeI64S, static_cast<int64_t>(a) <= static_cast<int64_t>(b))
  CMP64(CmpLeI64U, a <= b)
  op_CmpNzI64 : {
    uint16_t d = R16(), a_ = R16();
    r[d] = Get64(r, a_) != 0;
    DISPATCH();
  }
  BIN32(CmpEqF32, AsF32(a) == AsF32(b))
  BIN32(CmpNeF32, AsF32(a) != AsF32(b))
  BIN32(CmpLtF32, AsF32(a) < AsF32(b))
  BIN32(CmpLeF32, AsF32(a) <= AsF32(b))
  CMP64(CmpEqF64, AsF64(a) == AsF64(b))
  CMP64(CmpNeF64, AsF64(a) != AsF64(b))
  CMP64(CmpLtF64, AsF64(a) < AsF64(b))
  CMP64(CmpLeF64, AsF64(a) <= AsF64(b))
  op_CmpEqRef : {
    uint16_t d = R16(), a_ = R16(), b_ = R16();
    r[d] = refs[a_] == refs[b_];
    DISPATCH();
  }
  op_CmpNzRef : {
    uint16_t d = R16(), a_ = R16();
    r[d] = static_cast<bool>(refs[a_]);
    DISPATCH();
  }

  op_SelectI32 : {
    uint16_t d = R16(), c = R16(), a = R16(), b = R16();
    r[d] = r[c] ? r[a] : r[b];
    DISPATCH();
  }
  op_SelectI64 : {
    uint16_t d = R16(), c = R16(), a = R16(), b = R16();
    Set64(r, d, r[c] ? Get64(r, a) : Get64(r, b));
    DISPATCH();
  }
  op_SelectRef : {
    uint16_t d = R16(), c = R16(), a = R16(), b = R16();
    refs[d] = r[c] ? refs[a] : refs[b];
    DISPATCH();
  }

  op_ExtI32I64S : {
    uint16_t d = R16(), a = R16();
    Set64(r, d, static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(r[a]))));
    DISPATCH();
  }
  op_ExtI32I64U : {
    uint16_t d = R16(), a = R16();
    Set64(r, d, r[a]);
    DISPATCH();
  }
  op_TruncI64I32 : {
    uint16_t d = R16(), a = R16();
    r[d] = static_cast<uint32_t>(Get64(r, a));
    DISPATCH();
  }
  UN32(SiToFpI32F32, FromF32(static_cast<float>(static_cast<int32_t>(a))))
  UN32(UiToFpI32F32, FromF32(static_cast<float>(a)))
  UN32(FpToSiF32I32, static_cast<uint32_t>(SaturatingCast<int32_t>(AsF32(a))))
  UN32(FpToUiF32I32, SaturatingCast<uint32_t>(AsF32(a)))
  UN64(SiToFpI64F64, FromF64(static_cast<double>(static_cast<int64_t>(a))))
  UN64(FpToSiF64I64, static_cast<uint64_t>(SaturatingCast<int64_t>(AsF64(a))))
  op_ExtF32F64 : {
    uint16_t d = R16(), a = R16();
    Set64(r, d, FromF64(static_cast<double>(AsF32(r[a]))));
    DISPATCH();
  }
  op_TruncF64F32 : {
    uint16_t d = R16(), a = R16();
    r[d] = FromF32(static_cast<float>(AsF64(Get64(r, a))));
    DISPATCH();
  }

  op_Branch : {
    uint32_t block = R32();
    uint16_t moves = R16();
    if (moves) {
      // Moves are (source, target) pairs; split them into two lists for a parallel copy.
      const uint8_t* list = pc;
      pc += 4 * moves;
      move_bits_.resize(moves);
      move_refs_.resize(moves);
      for (uint16_t i = 0; i < moves; ++i) {
        uint16_t e = ReadUnaligned<uint16_t>(list + 4 * i);
        uint16_t idx = e & kRegisterIndexMask;
        if (e & kRefRegisterBit) {
          move_refs_[i] = refs[idx];
        } else {
          move_bits_[i] = (e & kPairRegisterBit) ? Get64(r, idx) : r[idx];
        }
      }
      for (uint16_t i = 0; i < moves; ++i) {
        uint16_t e = ReadUnaligned<uint16_t>(list + 4 * i + 2);
        uint16_t idx = e & kRegisterIndexMask;
        if (e & kRefRegisterBit) {
          refs[idx] = std::move(move_refs_[i]);
        } else if (e & kPairRegisterBit) {
          Set64(r, idx, move_bits_[i]);
        } else {
          r[idx] = static_cast<uint32_t>(move_bits_[i]);
        }
      }
    }
    pc = fn->code.data() + fn->block_offsets[block];
    DISPATCH();
  }
  op_CondBranch : {
    uint16_t c = R16();
    if (r[c]) {
      goto op_Branch;  // the true target is next in the stream
    }
    // Skip the true target, then take the false one.
    pc += 4;
    uint16_t moves = R16();
    pc += 4 * moves;
    goto op_Branch;
  }
  op_Call : {
    uint32_t callee = R32();
    const uint8_t* args = pc;
    pc += 2 + 2 * ReadUnaligned<uint16_t>(pc);
    const uint8_t* results = pc;
    pc += 2 + 2 * ReadUnaligned<uint16_t>(pc);
    if (callee & kImportCalleeBit) {
      {
        const Frame& top = frames_.back();
        Status status = CallImport(callee & ~kImportCalleeBit, args, results, top.i32_base, top.ref_base);
        if (!status.ok()) FAIL(status);
      }
      RELOAD_FRAME();
      DISPATCH();
    }
    uint32_t caller_i32 = frames_.back().i32_base, caller_ref = frames_.back().ref_base;
    if (Status pushed = PushFrame(callee, pc, results); !pushed.ok()) FAIL(pushed);
    // Arguments land in the callee's first registers: 32-bit values in order (64-bit
    // values on the next even slot), refs in order.
    {
      const Frame& top = frames_.back();
      uint32_t* base = Slots(slots_);
      uint16_t count = ReadUnaligned<uint16_t>(args);
      uint32_t slot = 0, ref = 0;
      for (uint16_t i = 0; i < count; ++i) {
        uint16_t e = ReadUnaligned<uint16_t>(args + 2 + 2 * i);
        uint16_t idx = e & kRegisterIndexMask;
        if (e & kRefRegisterBit) {
          refs_[top.ref_base + ref++] = refs_[caller_ref + idx];
        } else if (e & kPairRegisterBit) {
          slot = (slot + 1) & ~1u;
          Set64(base, top.i32_base + slot, Get64(base, caller_i32 + idx));
          slot += 2;
        } else {
          base[top.i32_base + slot++] = base[caller_i32 + idx];
        }
      }
    }
    RELOAD_FRAME();
    pc = fn->code.data();
    DISPATCH();
  }
  op_Return : {
    const uint8_t* list = pc;
    Frame done = frames_.back();
    if (frames_.size() == 1) {
      // Back to the host: hand the values out.
      uint16_t count = ReadUnaligned<uint16_t>(list);
      entry_results_.clear();
      for (uint16_t i = 0; i < count; ++i) {
        uint16_t e = ReadUnaligned<uint16_t>(list + 2 + 2 * i);
        uint16_t idx = e & kRegisterIndexMask;
        ValueKind kind = fn->signature.results[i];
        if (e & kRefRegisterBit) {
          entry_results_.push_back(Value::Ref(refs[idx]));
        } else {
          Value v;
          v.kind = kind;
          v.bits = (e & kPairRegisterBit) ? Get64(r, idx) : r[idx];
          entry_results_.push_back(std::move(v));
        }
      }
      PopFrame();
      return OkStatus();
    }
    const Frame& caller = frames_[frames_.size() - 2];
    CopyList(list, done.i32_base, done.ref_base, done.result_list, caller.i32_base, caller.ref_base);
    PopFrame();
    RELOAD_FRAME();
    pc = done.return_pc;
    DISPATCH();
  }
  op_Fail : {
    uint16_t c = R16();
    uint32_t message = R32();
    if (r[c] != 0) {
      uint32_t code = r[c] > static_cast<uint32_t>(StatusCode::kDataLoss) ? static_cast<uint32_t>(StatusCode::kUnknown)
                                                                            : r[c];
      FAIL(Status(static_cast<StatusCode>(code), std::string(module_.String(message))));
    }
    DISPATCH();
  }

  op_GlobalLoadI32 : {
    uint16_t d = R16();
    r[d] = Slots(ctx_.global_storage_)[R32()];
    DISPATCH();
  }
  op_GlobalStoreI32 : {
    uint32_t g = R32();
    Slots(ctx_.global_storage_)[g] = r[R16()];
    DISPATCH();
  }
  op_GlobalLoadI64 : {
    uint16_t d = R16();
    uint32_t g = R32();
    uint64_t v;
    std::memcpy(&v, Slots(ctx_.global_storage_) + g, 8);
    Set64(r, d, v);
    DISPATCH();
  }
  op_GlobalStoreI64 : {
    uint32_t g = R32();
    uint64_t v = Get64(r, R16());
    std::memcpy(Slots(ctx_.global_storage_) + g, &v, 8);
    DISPATCH();
  }
  op_GlobalLoadRef : {
    uint16_t d = R16();
    refs[d] = ctx_.global_refs_[R32()];
    DISPATCH();
  }
  op_GlobalStoreRef : {
    uint32_t g = R32();
    ctx_.global_refs_[g] = refs[R16()];
    DISPATCH();
  }

  op_RodataRef : {
    uint16_t d = R16();
    uint32_t ordinal = R32();
    Ref<ByteBuffer>& cached = ctx_.rodata_refs_[ordinal];
    if (!cached) {
      StatusOr<std::span<const uint8_t>> bytes = module_.Rodata(ordinal);
      if (!bytes.ok()) FAIL(bytes.status());
      cached = MakeRef<ByteBuffer>(Ref<RefCounted>(ctx_.module_.get()), *bytes);
    }
    refs[d] = VmRef::Make(cached);
    DISPATCH();
  }
  op_BufferLength : {
    uint16_t d = R16(), b = R16();
    ByteBuffer* buffer = refs[b].As<ByteBuffer>();
    if (!buffer) FAIL(InvalidArgumentError("buffer.length of a ref that is not a vm.buffer"));
    Set64(r, d, buffer->bytes().size());
    DISPATCH();
  }
  op_BufferLoadI32 : {
    uint16_t d = R16(), b = R16(), i = R16();
    ByteBuffer* buffer = refs[b].As<ByteBuffer>();
    if (!buffer) FAIL(InvalidArgumentError("buffer.load.i32 of a ref that is not a vm.buffer"));
    uint64_t offset = uint64_t{r[i]} * 4;
    if (offset + 4 > buffer->bytes().size()) {
      FAIL(OutOfRangeError("buffer.load.i32 of element ", r[i], " of a ", buffer->bytes().size(), "-byte buffer"));
    }
    r[d] = ReadUnaligned<uint32_t>(buffer->bytes().data() + offset);
    DISPATCH();
  }

  op_ListAlloc : {
    uint16_t d = R16();
    uint8_t kind = R8();
    uint16_t capacity = R16();
    {
      StatusOr<Ref<List>> list = List::Create(static_cast<ValueKind>(kind), r[capacity]);
      if (!list.ok()) FAIL(list.status());
      refs[d] = VmRef::Make(std::move(*list));
    }
    DISPATCH();
  }
  op_ListSize : {
    uint16_t d = R16(), l = R16();
    List* list = refs[l].As<List>();
    if (!list) FAIL(InvalidArgumentError("list.size of a ref that is not a vm.list"));
    r[d] = list->size();
    DISPATCH();
  }
  op_ListResize : {
    uint16_t l = R16(), s = R16();
    List* list = refs[l].As<List>();
    if (!list) FAIL(InvalidArgumentError("list.resize of a ref that is not a vm.list"));
    if (Status st = list->Resize(r[s]); !st.ok()) FAIL(st);
    DISPATCH();
  }
#define LIST_GET(Name, kind, store)                                               \
  op_##Name : {                                                                   \
    uint16_t d = R16(), l = R16(), i = R16();                                     \
    List* list = refs[l].As<List>();                                              \
    if (!list) FAIL(InvalidArgumentError("list access to a ref that is not a vm.list")); \
    {                                                                             \
      StatusOr<uint64_t> v = list->GetBits(r[i], kind);                           \
      if (!v.ok()) FAIL(v.status());                                              \
      store;                                                                      \
    }                                                                             \
    DISPATCH();                                                                   \
  }
  LIST_GET(ListGetI32, ValueKind::kI32, r[d] = static_cast<uint32_t>(*v))
  LIST_GET(ListGetI64, ValueKind::kI64, Set64(r, d, *v))
  op_ListSetI32 : {
    uint16_t l = R16(), i = R16(), v = R16();
    List* list = refs[l].As<List>();
    if (!list) FAIL(InvalidArgumentError("list access to a ref that is not a vm.list"));
    if (Status st = list->SetBits(r[i], ValueKind::kI32, r[v]); !st.ok()) FAIL(st);
    DISPATCH();
  }
  op_ListSetI64 : {
    uint16_t l = R16(), i = R16(), v = R16();
    List* list = refs[l].As<List>();
    if (!list) FAIL(InvalidArgumentError("list access to a ref that is not a vm.list"));
    if (Status st = list->SetBits(r[i], ValueKind::kI64, Get64(r, v)); !st.ok()) FAIL(st);
    DISPATCH();
  }
  op_ListGetRef : {
    uint16_t d = R16(), l = R16(), i = R16();
    List* list = refs[l].As<List>();
    if (!list) FAIL(InvalidArgumentError("list access to a ref that is not a vm.list"));
    {
      StatusOr<VmRef> v = list->GetRef(r[i]);
      if (!v.ok()) FAIL(v.status());
      refs[d] = std::move(*v);
    }
    DISPATCH();
  }
  op_ListSetRef : {
    uint16_t l = R16(), i = R16(), v = R16();
    List* list = refs[l].As<List>();
    if (!list) FAIL(InvalidArgumentError("list access to a ref that is not a vm.list"));
    if (Status st = list->SetRef(r[i], refs[v]); !st.ok()) FAIL(st);
    DISPATCH();
  }

fail:
  pc_ = pc;
  return error;
}

StatusOr<std::vector<Value>> Context::Call(uint32_t function_ordinal, std::span<const Value> args) {
  trace::Scope scope("vm");
  if (scope.enabled() && function_ordinal < module_->functions().size()) {
    scope.SetName(StrCat("@", module_->functions()[function_ordinal].name));
  }
  Interpreter interpreter(*this);
  return interpreter.Run(function_ordinal, args);
}

}  // namespace kiln::vm
