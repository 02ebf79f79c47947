// Bytecode programs driving the HAL through the "hal" native module, on every CPU driver:
// they allocate, record and submit dispatches of real kernels, wait on fences and return
// buffer views.
#include <numeric>

#include "drivers/builtin_drivers.h"
#include "hal/module/hal_module.h"
#include "tests/util/test_kernels.h"
#include "tests/vm/vm_test_util.h"

namespace kiln::vm {
namespace {

using namespace testing;
using hal::BufferUsage;
using hal::MemoryType;

constexpr uint64_t kHostMemory = static_cast<uint64_t>(MemoryType::kDeviceLocal | MemoryType::kHostVisible);
constexpr uint64_t kHostUsage = static_cast<uint64_t>(BufferUsage::kDefault | BufferUsage::kMapping);
constexpr uint64_t kF32 = static_cast<uint64_t>(hal::ElementType::kF32);

// Imports a HAL function by name with its declared signature.
uint32_t Import(ModuleBuilder& b, const std::string& name) {
  hal::HalModule probe(nullptr);
  for (const NativeFunction& f : probe.functions()) {
    if (f.name == name) return b.AddImport("hal." + name, f.signature);
  }
  ADD_FAILURE() << "no hal function " << name;
  return 0;
}

class HalModuleTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    StatusOr<Ref<hal::Device>> device = BuiltinDriverRegistry().CreateDevice(GetParam());
    ASSERT_TRUE(device.ok()) << device.status().ToString();
    device_ = *device;
    hal_ = std::make_unique<hal::HalModule>(device_);
    StatusOr<std::vector<uint8_t>> kernels = kiln::testing::ReadKernelFile("test_kernels");
    ASSERT_TRUE(kernels.ok()) << kernels.status().ToString();
    kernels_ = *kernels;
  }

  void AddKernels(ModuleBuilder& b, std::vector<ExecutableExportSpec> exports = {}) {
    if (exports.empty()) {
      exports = {{"noop", 0, 0}, {"add_f32", 3, 2, {64, 1, 1}}, {"write_ids", 1, 0}, {"weighted_sum8", 8, 1},
                 {"local_sum", 1, 0, {1, 1, 1}, 4096}, {"fail_at", 0, 1}, {"double_plus_one", 1, 1},
                 {"rendezvous", 1, 1}, {"check_index", 0, 2}};
    }
    b.AddExecutable("test_kernels", "elf-x86_64", kernels_, std::move(exports));
  }

  StatusOr<std::vector<Value>> Run(ModuleBuilder& b, std::string_view fn, std::span<const Value> args) {
    NativeModule* natives[] = {hal_.get()};
    return BuildAndCall(b, fn, args, natives);
  }

  Ref<hal::BufferView> View(const std::vector<float>& values) {
    StatusOr<Ref<hal::Buffer>> buffer = device_->allocator().Allocate(
        {MemoryType::kHostVisible, BufferUsage::kDefault | BufferUsage::kMapping}, values.size() * 4);
    EXPECT_TRUE(buffer.ok());
    EXPECT_TRUE((*buffer)->Write(0, {reinterpret_cast<const uint8_t*>(values.data()), values.size() * 4}).ok());
    int64_t shape[] = {static_cast<int64_t>(values.size())};
    StatusOr<Ref<hal::BufferView>> view = hal::BufferView::Create(*buffer, shape, hal::ElementType::kF32);
    EXPECT_TRUE(view.ok());
    return *view;
  }

  // main(a: view f32[n], b: view f32[n]) -> view f32[n] = a + b, dispatched in chunks.
  void BuildAdd(ModuleBuilder& b, uint32_t chunk) {
    uint32_t dim = Import(b, "buffer_view.dim"), get_buffer = Import(b, "buffer_view.buffer");
    uint32_t assert_view = Import(b, "buffer_view.assert");
    uint32_t allocate = Import(b, "allocator.allocate"), lookup = Import(b, "executable.lookup");
    uint32_t cb_create = Import(b, "command_buffer.create"), push = Import(b, "command_buffer.push_constants");
    uint32_t dispatch = Import(b, "command_buffer.dispatch"), finalize = Import(b, "command_buffer.finalize");
    uint32_t fence_create = Import(b, "fence.create"), execute = Import(b, "device.queue.execute");
    uint32_t await = Import(b, "fence.await"), view_create = Import(b, "buffer_view.create");
    AddKernels(b);

    FunctionBuilder& f = b.AddFunction("main", "rr:r");
    Reg a = f.args()[0], bv = f.args()[1];
    Reg zero32 = f.NewI32(), n = f.NewI64(), four = f.NewI64(), size = f.NewI64(), zero64 = f.NewI64();
    Reg a_buf = f.NewRef(), b_buf = f.NewRef(), out = f.NewRef(), exe = f.NewRef(), cb = f.NewRef();
    Reg fence = f.NewRef(), null = f.NewRef(), result = f.NewRef();
    Reg mem = f.NewI32(), usage = f.NewI32(), n32 = f.NewI32(), chunk32 = f.NewI32(), groups = f.NewI32();
    Reg one = f.NewI32(), tmp = f.NewI32(), export_ordinal = f.NewI32(), f32 = f.NewI32(), forever = f.NewI32();
    f.Emit(Opcode::kConstI32, {zero32.index(), 0});
    f.Emit(Opcode::kConstI32, {one.index(), 1});
    f.Emit(Opcode::kConstI32, {f32.index(), kF32});
    f.Location("add.mlir:1:1");
    f.CallImport(dim, std::vector<Reg>{a, zero32}, std::vector<Reg>{n});
    f.Location("add.mlir:2:1");
    f.CallImport(assert_view, std::vector<Reg>{bv, f32, n}, {});
    f.CallImport(get_buffer, std::vector<Reg>{a}, std::vector<Reg>{a_buf});
    f.CallImport(get_buffer, std::vector<Reg>{bv}, std::vector<Reg>{b_buf});
    f.Emit(Opcode::kConstI64, {four.index(), 4});
    f.Emit(Opcode::kConstI64, {zero64.index(), 0});
    f.Emit(Opcode::kMulI64, {size.index(), n.index(), four.index()});
    f.Emit(Opcode::kConstI32, {mem.index(), kHostMemory});
    f.Emit(Opcode::kConstI32, {usage.index(), kHostUsage});
    f.CallImport(allocate, std::vector<Reg>{mem, usage, size}, std::vector<Reg>{out});
    f.CallImport(lookup, std::vector<Reg>{zero32}, std::vector<Reg>{exe});
    f.CallImport(cb_create, {}, std::vector<Reg>{cb});
    // groups = (n + chunk - 1) / chunk
    f.Emit(Opcode::kTruncI64I32, {n32.index(), n.index()});
    f.Emit(Opcode::kConstI32, {chunk32.index(), chunk});
    f.Emit(Opcode::kAddI32, {tmp.index(), n32.index(), chunk32.index()});
    f.Emit(Opcode::kSubI32, {tmp.index(), tmp.index(), one.index()});
    f.Emit(Opcode::kDivI32U, {groups.index(), tmp.index(), chunk32.index()});
    f.CallImport(push, std::vector<Reg>{cb, n32, chunk32}, {});
    f.Emit(Opcode::kConstI32, {export_ordinal.index(), 1});
    f.Location("add.mlir:3:1");
    f.CallImport(dispatch,
                 std::vector<Reg>{cb, exe, export_ordinal, groups, one, one, a_buf, zero64, size, b_buf, zero64, size,
                                  out, zero64, size},
                 {});
    f.CallImport(finalize, std::vector<Reg>{cb}, {});
    f.CallImport(fence_create, {}, std::vector<Reg>{fence});
    f.Emit(Opcode::kConstRefNull, {null.index()});
    f.CallImport(execute, std::vector<Reg>{null, fence, cb}, {});
    f.Emit(Opcode::kConstI32, {forever.index(), static_cast<uint64_t>(-1) & 0xffffffffu});
    f.Location("add.mlir:4:1");
    f.CallImport(await, std::vector<Reg>{forever, fence}, {});
    f.CallImport(view_create, std::vector<Reg>{out, f32, n}, std::vector<Reg>{result});
    f.Return(std::vector<Reg>{result});
    b.Export("main", f.ordinal());
  }

  // main(pattern: I) -> I: alloca -> fill -> copy to a host buffer -> dealloca, ordered by
  // fences; returns a word of the copy.
  void BuildTransient(ModuleBuilder& b) {
    uint32_t alloca = Import(b, "device.queue.alloca"), dealloca = Import(b, "device.queue.dealloca");
    uint32_t allocate = Import(b, "allocator.allocate"), cb_create = Import(b, "command_buffer.create");
    uint32_t fill = Import(b, "command_buffer.fill"), copy = Import(b, "command_buffer.copy");
    uint32_t barrier = Import(b, "command_buffer.barrier"), finalize = Import(b, "command_buffer.finalize");
    uint32_t fence_create = Import(b, "fence.create"), execute = Import(b, "device.queue.execute");
    uint32_t await = Import(b, "fence.await"), load = Import(b, "buffer.load");
    FunctionBuilder& f = b.AddFunction("main", "I:I");
    Reg pattern = f.args()[0];
    Reg mem = f.NewI32(), usage = f.NewI32(), host_mem = f.NewI32(), host_usage = f.NewI32(), width = f.NewI32();
    Reg four = f.NewI32(), forever = f.NewI32();
    Reg size = f.NewI64(), zero = f.NewI64(), offset = f.NewI64(), value = f.NewI64();
    Reg f1 = f.NewRef(), f2 = f.NewRef(), f3 = f.NewRef(), null = f.NewRef(), tmp = f.NewRef(), host = f.NewRef();
    Reg cb = f.NewRef();
    f.Emit(Opcode::kConstI32, {mem.index(), static_cast<uint64_t>(MemoryType::kDeviceLocal)});
    f.Emit(Opcode::kConstI32, {usage.index(), static_cast<uint64_t>(BufferUsage::kDefault)});
    f.Emit(Opcode::kConstI32, {host_mem.index(), kHostMemory});
    f.Emit(Opcode::kConstI32, {host_usage.index(), kHostUsage});
    f.Emit(Opcode::kConstI32, {width.index(), 4});
    f.Emit(Opcode::kConstI32, {four.index(), 4});
    f.Emit(Opcode::kConstI32, {forever.index(), 0xffffffffu});
    f.Emit(Opcode::kConstI64, {size.index(), 4096});
    f.Emit(Opcode::kConstI64, {zero.index(), 0});
    f.Emit(Opcode::kConstI64, {offset.index(), 1024});
    f.Emit(Opcode::kConstRefNull, {null.index()});
    f.CallImport(fence_create, {}, std::vector<Reg>{f1});
    f.CallImport(fence_create, {}, std::vector<Reg>{f2});
    f.CallImport(fence_create, {}, std::vector<Reg>{f3});
    f.CallImport(alloca, std::vector<Reg>{null, f1, mem, usage, size}, std::vector<Reg>{tmp});
    f.CallImport(allocate, std::vector<Reg>{host_mem, host_usage, size}, std::vector<Reg>{host});
    f.CallImport(cb_create, {}, std::vector<Reg>{cb});
    f.CallImport(fill, std::vector<Reg>{cb, tmp, zero, size, pattern, four}, {});
    f.CallImport(barrier, std::vector<Reg>{cb}, {});
    f.CallImport(copy, std::vector<Reg>{cb, tmp, zero, host, zero, size}, {});
    f.CallImport(finalize, std::vector<Reg>{cb}, {});
    f.CallImport(execute, std::vector<Reg>{f1, f2, cb}, {});
    f.CallImport(dealloca, std::vector<Reg>{f2, f3, tmp}, {});
    f.CallImport(await, std::vector<Reg>{forever, f3}, {});
    f.CallImport(load, std::vector<Reg>{host, offset, width}, std::vector<Reg>{value});
    f.Return(std::vector<Reg>{value});
    b.Export("main", f.ordinal());
  }

  Ref<hal::Device> device_;
  std::unique_ptr<hal::HalModule> hal_;
  std::vector<uint8_t> kernels_;
};

TEST_P(HalModuleTest, ProgramDispatchesAKernelAndReturnsItsResult) {
  ModuleBuilder b("add");
  BuildAdd(b, 1000);
  for (size_t n : {1u, 999u, 100000u}) {
    std::vector<float> x(n), y(n);
    for (size_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i);
      y[i] = 0.25f * static_cast<float>(i % 13);
    }
    Value args[] = {Value::Ref(VmRef::Make(View(x))), Value::Ref(VmRef::Make(View(y)))};
    KILN_ASSERT_OK_AND_ASSIGN(std::vector<Value> r, Run(b, "main", args));
    hal::BufferView* view = r[0].ref.As<hal::BufferView>();
    ASSERT_NE(view, nullptr);
    EXPECT_EQ(view->ShapeString(), StrCat(n, "xf32"));
    std::vector<float> got(n);
    ASSERT_TRUE(view->buffer()->Read(0, {reinterpret_cast<uint8_t*>(got.data()), n * 4}).ok());
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], x[i] + y[i]) << i;
  }
}

TEST_P(HalModuleTest, ShapeMismatchFailsWithSourceLocation) {
  ModuleBuilder b("add");
  BuildAdd(b, 1000);
  Value args[] = {Value::Ref(VmRef::Make(View({1, 2, 3}))), Value::Ref(VmRef::Make(View({1, 2})))};
  ExpectError(Run(b, "main", args).status(), StatusCode::kInvalidArgument,
                      "expected a buffer view of 3xf32, got 2xf32; in call to 'hal.buffer_view.assert'; at add.main+");
  ExpectError(Run(b, "main", args).status(), StatusCode::kInvalidArgument, "(add.mlir:2:1)");
}

TEST_P(HalModuleTest, KernelFailureSurfacesAtTheAwait) {
  // fail_at returns device error 42 from workgroup 3; the error reaches the program where
  // it awaits the fence, with the dispatch named and the VM backtrace added.
  ModuleBuilder b("fails");
  uint32_t lookup = Import(b, "executable.lookup"), cb_create = Import(b, "command_buffer.create");
  uint32_t push = Import(b, "command_buffer.push_constants"), dispatch = Import(b, "command_buffer.dispatch");
  uint32_t finalize = Import(b, "command_buffer.finalize"), fence_create = Import(b, "fence.create");
  uint32_t execute = Import(b, "device.queue.execute"), await = Import(b, "fence.await");
  AddKernels(b);
  FunctionBuilder& f = b.AddFunction("main", ":");
  Reg zero = f.NewI32(), one = f.NewI32(), fail_export = f.NewI32(), id = f.NewI32(), forever = f.NewI32();
  Reg exe = f.NewRef(), cb = f.NewRef(), fence = f.NewRef(), null = f.NewRef();
  f.Emit(Opcode::kConstI32, {zero.index(), 0});
  f.Emit(Opcode::kConstI32, {one.index(), 1});
  f.Emit(Opcode::kConstI32, {fail_export.index(), 5});
  f.Emit(Opcode::kConstI32, {id.index(), 3});
  f.Emit(Opcode::kConstI32, {forever.index(), 0xffffffffu});
  f.CallImport(lookup, std::vector<Reg>{zero}, std::vector<Reg>{exe});
  f.CallImport(cb_create, {}, std::vector<Reg>{cb});
  f.CallImport(push, std::vector<Reg>{cb, id}, {});
  Reg groups = f.NewI32();
  f.Emit(Opcode::kConstI32, {groups.index(), 8});
  f.CallImport(dispatch, std::vector<Reg>{cb, exe, fail_export, groups, one, one}, {});
  f.CallImport(finalize, std::vector<Reg>{cb}, {});
  f.CallImport(fence_create, {}, std::vector<Reg>{fence});
  f.Emit(Opcode::kConstRefNull, {null.index()});
  f.CallImport(execute, std::vector<Reg>{null, fence, cb}, {});
  f.Location("fails.mlir:9:2");
  f.CallImport(await, std::vector<Reg>{forever, fence}, {});
  f.Return({});
  b.Export("main", f.ordinal());
  Status s = Run(b, "main", {}).status();
  ExpectError(s, StatusCode::kAborted, "workgroup (3, 0, 0) returned device error 42");
  ExpectError(s, StatusCode::kAborted, "in dispatch 'fail_at'");
  ExpectError(s, StatusCode::kAborted, "in call to 'hal.fence.await'; at fails.main+");
  ExpectError(s, StatusCode::kAborted, "(fails.mlir:9:2)");
}

TEST_P(HalModuleTest, TransientAllocationThroughTheQueue) {
  ModuleBuilder b("transient");
  BuildTransient(b);
  Value args[] = {Value::I64(0x5eed1234)};
  KILN_ASSERT_OK_AND_ASSIGN(std::vector<Value> r, Run(b, "main", args));
  EXPECT_EQ(r[0].i64(), 0x5eed1234);
  EXPECT_EQ(device_->queue_statistics().transient_bytes_reserved, 0u);
}

TEST_P(HalModuleTest, RecordingKeepsSubmissionsAndTransientsUntilReleased) {
  ModuleBuilder b("transient");
  BuildTransient(b);
  hal::Recording recording;
  hal_->set_recording(&recording);
  Value args[] = {Value::I64(0x5eed1234)};
  KILN_ASSERT_OK_AND_ASSIGN(std::vector<Value> r, Run(b, "main", args));
  hal_->set_recording(nullptr);
  EXPECT_EQ(r[0].i64(), 0x5eed1234);
  // The command buffer (fill, barrier, copy) is kept; the transient stays committed.
  ASSERT_EQ(recording.submissions.size(), 1u);
  EXPECT_EQ(recording.submissions[0]->commands().size(), 3u);
  ASSERT_EQ(recording.held_transients.size(), 1u);
  EXPECT_NE(recording.held_transients[0]->storage()->device_address(), nullptr);
  KILN_ASSERT_OK(recording.Release(*device_));
  EXPECT_TRUE(recording.held_transients.empty());
  EXPECT_EQ(device_->queue_statistics().transient_bytes_reserved, 0u);
  // Without a recording nothing is kept.
  KILN_ASSERT_OK_AND_ASSIGN(r, Run(b, "main", args));
  EXPECT_TRUE(recording.submissions.empty());
}

TEST_P(HalModuleTest, ExportDefCarriesTheCostFormulas) {
  ModuleBuilder b("costs");
  std::vector<ExecutableExportSpec> exports = {{"noop", 0, 0}, {"add_f32", 3, 2, {64, 1, 1}}, {"write_ids", 1, 0},
                                               {"weighted_sum8", 8, 1}, {"local_sum", 1, 0, {1, 1, 1}, 4096},
                                               {"fail_at", 0, 1}, {"double_plus_one", 1, 1}, {"rendezvous", 1, 1},
                                               {"check_index", 0, 2}};
  DispatchCostSpec cost;
  cost.flops = std::vector<CostTerm>{{1, {0}}};
  cost.bytes_read = std::vector<CostTerm>{{8, {0}}};
  cost.bytes_written = std::vector<CostTerm>{{4, {0}}, {16, {}}};
  exports[1].cost = cost;
  AddKernels(b, exports);
  FunctionBuilder& f = b.AddFunction("main", ":");
  f.Return({});
  b.Export("main", f.ordinal());
  KILN_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> bytes, b.Finish());
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> module, Module::LoadFromMemory(bytes, "costs"));
  KILN_ASSERT_OK_AND_ASSIGN(Ref<hal::Executable> exe, hal_->LookupExecutable(*module, 0));
  const fb::ExecutableExportDef* add = hal_->ExportDef(*exe, 1);
  ASSERT_NE(add, nullptr);
  ASSERT_NE(add->cost(), nullptr);
  ASSERT_NE(add->cost()->bytes_written(), nullptr);
  ASSERT_EQ(add->cost()->bytes_written()->size(), 2u);
  EXPECT_EQ(add->cost()->bytes_written()->Get(1)->coefficient(), 16);
  EXPECT_EQ(add->cost()->flops()->Get(0)->words()->Get(0), 0u);
  EXPECT_EQ(hal_->ExportDef(*exe, 0)->cost(), nullptr);  // none recorded
  EXPECT_EQ(hal_->ExportDef(*exe, 99), nullptr);

  // A formula naming a word the export does not have is rejected at load.
  ModuleBuilder bad("bad_costs");
  exports[1].cost->flops = std::vector<CostTerm>{{1, {2}}};
  AddKernels(bad, exports);
  FunctionBuilder& g = bad.AddFunction("main", ":");
  g.Return({});
  bad.Export("main", g.ordinal());
  KILN_ASSERT_OK_AND_ASSIGN(bytes, bad.Finish());
  ExpectError(Module::LoadFromMemory(bytes, "bad_costs").status(), StatusCode::kInvalidArgument,
              "cost formula names push-constant word 2 of 2; in executable 0 export 'add_f32'");
}

TEST_P(HalModuleTest, ExecutableMetadataMustMatchTheBinary) {
  ModuleBuilder b("mismatch");
  uint32_t lookup = Import(b, "executable.lookup");
  AddKernels(b, {{"noop", 0, 0}, {"add_f32", 2, 2}, {"write_ids", 1, 0}, {"weighted_sum8", 8, 1},
                 {"local_sum", 1, 0}, {"fail_at", 0, 1}, {"double_plus_one", 1, 1}, {"rendezvous", 1, 1},
                 {"check_index", 0, 2}});
  FunctionBuilder& f = b.AddFunction("main", ":");
  Reg zero = f.NewI32(), exe = f.NewRef();
  f.Emit(Opcode::kConstI32, {zero.index(), 0});
  f.CallImport(lookup, std::vector<Reg>{zero}, std::vector<Reg>{exe});
  f.Return({});
  b.Export("main", f.ordinal());
  ExpectError(Run(b, "main", {}).status(), StatusCode::kInvalidArgument,
                      "export 1 is 'add_f32' (2 bindings, 2 constants) in the module but 'add_f32' (3 bindings");
}

TEST_P(HalModuleTest, WrongRefTypesAreReported) {
  ModuleBuilder b("types");
  uint32_t length = Import(b, "buffer.length");
  FunctionBuilder& f = b.AddFunction("main", "r:I");
  Reg out = f.NewI64();
  f.CallImport(length, std::vector<Reg>{f.args()[0]}, std::vector<Reg>{out});
  f.Return(std::vector<Reg>{out});
  b.Export("main", f.ordinal());
  Value args[] = {Value::Ref(VmRef::Make(View({1, 2})))};
  ExpectError(Run(b, "main", args).status(), StatusCode::kInvalidArgument,
                      "argument 0 must be a hal.buffer, got a hal.buffer_view");
}

// Every argument check of the hal module: a program passes one bad value and the call fails
// with a message naming what was wrong.
TEST_P(HalModuleTest, BadArgumentsAreRejectedWithReasons) {
  struct Case {
    std::string function;  // hal function
    std::vector<Value> args;
    std::string fragment;
  };
  Ref<hal::BufferView> view = View({1, 2, 3, 4});
  Value buffer = Value::Ref(VmRef::Make(view->buffer()));
  Value view_ref = Value::Ref(VmRef::Make(view));
  const std::vector<Case> cases = {
      {"device.query", {Value::I32(99)}, "unknown device query key 99"},
      {"allocator.allocate", {Value::I32(1), Value::I32(7), Value::I64(-5)}, "allocation size is negative"},
      {"buffer.subspan", {buffer, Value::I64(-1), Value::I64(4)}, "subspan offset is negative"},
      {"buffer.subspan", {buffer, Value::I64(8), Value::I64(16)}, "exceeds a buffer of 16 bytes"},
      {"buffer.load", {buffer, Value::I64(0), Value::I32(3)}, "access width must be 1, 2, 4 or 8, got 3"},
      {"buffer.load", {buffer, Value::I64(12), Value::I32(8)}, "mapped range"},
      {"buffer.store", {buffer, Value::I64(-8), Value::I32(4), Value::I64(1)}, "store offset is negative"},
      {"buffer_view.create", {buffer, Value::I32(200), Value::I64(4)}, "unknown element type 200"},
      {"buffer_view.create", {buffer, Value::I32(9), Value::I64(5)}, "needs 20 bytes but its buffer has 16"},
      {"buffer_view.dim", {view_ref, Value::I32(1)}, "dimension 1 of a rank-1 buffer view"},
      {"buffer_view.assert", {view_ref, Value::I32(9), Value::I64(5)}, "expected a buffer view of 5xf32, got 4xf32"},
      {"executable.lookup", {Value::I32(3)}, "has no executable 3"},
      {"executable.lookup", {Value::I32(-1)}, "executable ordinal -1"},
      {"fence.signal", {Value::Ref({})}, "argument 0 must be a hal.fence, got null"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.function + " expecting: " + c.fragment);
    hal::HalModule probe(nullptr);
    std::string signature;
    for (const NativeFunction& f : probe.functions()) {
      if (f.name == c.function) signature = f.signature;
    }
    ASSERT_FALSE(signature.empty());
    // f(args...) calls the import with its arguments and returns nothing.
    std::string fixed = signature.substr(0, signature.find_first_of("[:"));
    std::string variadic;
    if (size_t open = signature.find('['); open != std::string::npos) {
      variadic = signature.substr(open + 1, signature.find(']') - open - 1);
    }
    std::string args_sig = fixed;
    while (args_sig.size() < c.args.size()) args_sig += variadic;
    ModuleBuilder b("bad_args");
    uint32_t import = b.AddImport("hal." + c.function, signature);
    AddKernels(b);
    std::string results = signature.substr(signature.find(':') + 1);
    FunctionBuilder& f = b.AddFunction("f", args_sig + ":");
    std::vector<Reg> out;
    for (char r : results) out.push_back(r == 'r' ? f.NewRef() : r == 'I' ? f.NewI64() : f.NewI32());
    f.CallImport(import, f.args(), out);
    f.Return({});
    b.Export("f", f.ordinal());
    Status s = Run(b, "f", c.args).status();
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.ToString().find(c.fragment), std::string::npos) << s.ToString();
    EXPECT_NE(s.ToString().find("in call to 'hal." + c.function + "'"), std::string::npos) << s.ToString();
  }
}

// Constants from rodata: allocate_initialized into host-visible memory (written directly) and
// into device-local memory (staged through a copy), and command_buffer.update, each read
// back through a host buffer; then both with a source range past the rodata's end.
TEST_P(HalModuleTest, RodataReachesBuffersThroughEveryPath) {
  std::vector<uint32_t> words = {10, 11, 12, 13, 14, 15, 16, 17};
  std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4);
  // f(offset, length) -> (word 0 of allocate_initialized host, of ... device, of update)
  ModuleBuilder b("rodata");
  uint32_t seg = b.AddRodata(bytes);
  uint32_t init = Import(b, "allocator.allocate_initialized"), allocate = Import(b, "allocator.allocate");
  uint32_t cb_create = Import(b, "command_buffer.create"), copy = Import(b, "command_buffer.copy");
  uint32_t update = Import(b, "command_buffer.update"), finalize = Import(b, "command_buffer.finalize");
  uint32_t fence_create = Import(b, "fence.create"), execute = Import(b, "device.queue.execute");
  uint32_t await = Import(b, "fence.await"), load = Import(b, "buffer.load");
  FunctionBuilder& f = b.AddFunction("f", "II:III");
  Reg offset = f.args()[0], length = f.args()[1];
  Reg data = f.NewRef(), host = f.NewRef(), device = f.NewRef(), staged = f.NewRef(), cb = f.NewRef();
  Reg fence = f.NewRef(), null = f.NewRef();
  Reg host_mem = f.NewI32(), host_usage = f.NewI32(), dev_mem = f.NewI32(), dev_usage = f.NewI32();
  Reg width = f.NewI32(), forever = f.NewI32();
  Reg zero = f.NewI64(), sixteen = f.NewI64(), from_host = f.NewI64(), from_device = f.NewI64(), from_update = f.NewI64();
  f.Emit(Opcode::kRodataRef, {data.index(), seg});
  f.Emit(Opcode::kConstI32, {host_mem.index(), kHostMemory});
  f.Emit(Opcode::kConstI32, {host_usage.index(), kHostUsage});
  f.Emit(Opcode::kConstI32, {dev_mem.index(), static_cast<uint64_t>(MemoryType::kDeviceLocal)});
  f.Emit(Opcode::kConstI32, {dev_usage.index(), static_cast<uint64_t>(BufferUsage::kDefault)});
  f.Emit(Opcode::kConstI32, {width.index(), 4});
  f.Emit(Opcode::kConstI32, {forever.index(), 0xffffffffu});
  f.Emit(Opcode::kConstI64, {zero.index(), 0});
  f.Emit(Opcode::kConstI64, {sixteen.index(), 16});
  f.Emit(Opcode::kConstRefNull, {null.index()});
  f.CallImport(init, std::vector<Reg>{data, offset, length, host_mem, host_usage}, std::vector<Reg>{host});
  f.CallImport(init, std::vector<Reg>{data, offset, length, dev_mem, dev_usage}, std::vector<Reg>{device});
  f.CallImport(allocate, std::vector<Reg>{host_mem, host_usage, sixteen}, std::vector<Reg>{staged});
  f.CallImport(cb_create, {}, std::vector<Reg>{cb});
  f.CallImport(copy, std::vector<Reg>{cb, device, zero, staged, zero, length}, {});
  f.CallImport(finalize, std::vector<Reg>{cb}, {});
  f.CallImport(fence_create, {}, std::vector<Reg>{fence});
  f.CallImport(execute, std::vector<Reg>{null, fence, cb}, {});
  f.CallImport(await, std::vector<Reg>{forever, fence}, {});
  f.CallImport(load, std::vector<Reg>{host, zero, width}, std::vector<Reg>{from_host});
  f.CallImport(load, std::vector<Reg>{staged, zero, width}, std::vector<Reg>{from_device});
  // update: write the same rodata range over the host buffer's first bytes, after zeroing it.
  Reg cb2 = f.NewRef(), fence2 = f.NewRef(), zero32 = f.NewI32();
  f.Emit(Opcode::kConstI32, {zero32.index(), 0});
  uint32_t fill = Import(b, "command_buffer.fill"), barrier = Import(b, "command_buffer.barrier");
  f.CallImport(cb_create, {}, std::vector<Reg>{cb2});
  f.CallImport(fill, std::vector<Reg>{cb2, staged, zero, sixteen, zero, width}, {});
  f.CallImport(barrier, std::vector<Reg>{cb2}, {});
  f.CallImport(update, std::vector<Reg>{cb2, data, offset, staged, zero, length}, {});
  f.CallImport(finalize, std::vector<Reg>{cb2}, {});
  f.CallImport(fence_create, {}, std::vector<Reg>{fence2});
  f.CallImport(execute, std::vector<Reg>{null, fence2, cb2}, {});
  f.CallImport(await, std::vector<Reg>{forever, fence2}, {});
  f.CallImport(load, std::vector<Reg>{staged, zero, width}, std::vector<Reg>{from_update});
  f.Return(std::vector<Reg>{from_host, from_device, from_update});
  b.Export("f", f.ordinal());

  Value args[] = {Value::I64(8), Value::I64(16)};  // words 2..5
  KILN_ASSERT_OK_AND_ASSIGN(std::vector<Value> r, Run(b, "f", args));
  EXPECT_EQ(r[0].i64(), 12);
  EXPECT_EQ(r[1].i64(), 12);
  EXPECT_EQ(r[2].i64(), 12);
  Value past_end[] = {Value::I64(24), Value::I64(16)};
  ExpectError(Run(b, "f", past_end).status(), StatusCode::kOutOfRange,
              "source [24, +16) exceeds a 32-byte vm.buffer; in call to 'hal.allocator.allocate_initialized'");
  Value negative[] = {Value::I64(-4), Value::I64(16)};
  ExpectError(Run(b, "f", negative).status(), StatusCode::kInvalidArgument, "source offset is negative");
}

TEST_P(HalModuleTest, NegativeWorkgroupCountIsRejected) {
  ModuleBuilder b("negative");
  uint32_t lookup = Import(b, "executable.lookup"), cb_create = Import(b, "command_buffer.create");
  uint32_t dispatch = Import(b, "command_buffer.dispatch");
  AddKernels(b);
  FunctionBuilder& f = b.AddFunction("main", ":");
  Reg zero = f.NewI32(), minus = f.NewI32(), one = f.NewI32(), exe = f.NewRef(), cb = f.NewRef();
  f.Emit(Opcode::kConstI32, {zero.index(), 0});
  f.Emit(Opcode::kConstI32, {minus.index(), 0xffffffffu});
  f.Emit(Opcode::kConstI32, {one.index(), 1});
  f.CallImport(lookup, std::vector<Reg>{zero}, std::vector<Reg>{exe});
  f.CallImport(cb_create, {}, std::vector<Reg>{cb});
  f.CallImport(dispatch, std::vector<Reg>{cb, exe, zero, one, minus, one}, {});
  f.Return({});
  b.Export("main", f.ordinal());
  ExpectError(Run(b, "main", {}).status(), StatusCode::kInvalidArgument, "workgroup count 1 is negative");
}

INSTANTIATE_TEST_SUITE_P(AllDrivers, HalModuleTest, ::testing::Values("cpu", "cpu-sync"),
                         [](const auto& info) { return info.param == "cpu" ? "cpu" : "cpu_sync"; });

}  // namespace
}  // namespace kiln::vm
