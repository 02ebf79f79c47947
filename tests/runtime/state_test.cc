// Module state and parameters end to end: programs with util.global, util.initializer and
// parameter-bound globals, compiled in-process, run through sessions (runtime/session.h).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "base/str_cat.h"
#include "compiler/pipeline/CompileFile.h"
#include "drivers/builtin_drivers.h"
#include "io/parameter_provider.h"
#include "runtime/session.h"
#include "runtime/value_text.h"
#include "tests/io/format_builders.h"

namespace kiln::runtime {
namespace {

namespace iot = io::testing;

class State : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = iot::MakeTempDir("kiln_state_test"); }

  // The module compiled from `source` for the CPU; its size in bytes goes to `size`.
  Ref<vm::Module> Compile(const std::string& source, size_t* size = nullptr) {
    std::string path = dir_ + "/m" + std::to_string(counter_++) + ".mlir";
    std::ofstream(path) << source;
    StatusOr<std::vector<uint8_t>> bytes = compiler::CompileFile(path);
    EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
    if (!bytes.ok()) return {};
    if (size) *size = bytes->size();
    StatusOr<Ref<vm::Module>> module = vm::Module::LoadFromMemory(*bytes, path);
    EXPECT_TRUE(module.ok()) << module.status().ToString();
    return module.ok() ? *module : Ref<vm::Module>();
  }
  StatusOr<std::unique_ptr<Session>> Open(Ref<vm::Module> module, const SessionOptions& options = {},
                                          const char* device = "cpu-sync") {
    return Session::Create(device, std::move(module), {}, options);
  }
  // The text of result `i` of calling `fn` with no arguments (or `args`).
  std::string CallText(Session& session, const char* fn, std::vector<vm::Value> args = {}, size_t i = 0) {
    StatusOr<std::vector<vm::Value>> results = session.Call(fn, args);
    EXPECT_TRUE(results.ok()) << results.status().ToString();
    if (!results.ok() || results->size() <= i) return "<error>";
    StatusOr<std::string> text = FormatValue((*results)[i]);
    return text.ok() ? *text : text.status().ToString();
  }
  std::string WriteFileOf(const std::string& name, const iot::Bytes& bytes) {
    std::string path = dir_ + "/" + name;
    EXPECT_TRUE(iot::WriteFile(path, bytes));
    return path;
  }
  static iot::Bytes Floats(std::initializer_list<float> values) {
    iot::Bytes bytes(values.size() * 4);
    std::memcpy(bytes.data(), values.begin(), bytes.size());
    return bytes;
  }

  std::string dir_;
  int counter_ = 0;
};

constexpr const char* kCounter = R"mlir(
util.global private mutable @count = 0 : i32
util.global private mutable @total = dense<2.0> : tensor<f32>
util.func public @inc() -> (tensor<f32>, i32) {
  %n = util.global.load @count : i32
  %one = arith.constant 1 : i32
  %n1 = arith.addi %n, %one : i32
  util.global.store %n1, @count : i32
  %t = util.global.load @total : tensor<f32>
  %c1 = arith.constant dense<1.0> : tensor<f32>
  %t1 = arith.addf %t, %c1 : tensor<f32>
  util.global.store %t1, @total : tensor<f32>
  util.return %t1, %n1 : tensor<f32>, i32
}
)mlir";

TEST_F(State, AStoreIsSeenByEveryLaterCallOfTheSession) {
  Ref<vm::Module> module = Compile(kCounter);
  ASSERT_TRUE(module);
  StatusOr<std::unique_ptr<Session>> session = Open(module);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  for (int i = 1; i < 100; ++i) (void)CallText(**session, "inc");
  EXPECT_EQ(CallText(**session, "inc"), "hal.buffer_view\nf32=102");
  EXPECT_EQ(CallText(**session, "inc", {}, 1), "i32=101");
}

TEST_F(State, TwoSessionsOfOneModuleShareNoState) {
  Ref<vm::Module> module = Compile(kCounter);
  ASSERT_TRUE(module);
  StatusOr<std::unique_ptr<Session>> a = Open(module), b = Open(module, {}, "cpu");
  ASSERT_TRUE(a.ok() && b.ok());
  for (int i = 0; i < 3; ++i) (void)CallText(**a, "inc");
  EXPECT_EQ(CallText(**b, "inc"), "hal.buffer_view\nf32=3");
  EXPECT_EQ(CallText(**a, "inc"), "hal.buffer_view\nf32=6");
}

TEST_F(State, InitializersRunInModuleOrderWithInitialValues) {
  Ref<vm::Module> module = Compile(R"mlir(
util.global private @a = dense<[1.0, 2.0]> : tensor<2xf32>
util.global private @b : tensor<2xf32>
util.initializer {
  %a = util.global.load @a : tensor<2xf32>
  %b = arith.mulf %a, %a : tensor<2xf32>
  util.global.store %b, @b : tensor<2xf32>
  util.return
}
util.global private mutable @c = dense<[10.0, 20.0]> : tensor<2xf32>
util.initializer {
  %b = util.global.load @b : tensor<2xf32>
  %c = util.global.load @c : tensor<2xf32>
  %s = arith.addf %b, %c : tensor<2xf32>
  util.global.store %s, @c : tensor<2xf32>
  util.return
}
util.func public @get() -> tensor<2xf32> {
  %c = util.global.load @c : tensor<2xf32>
  util.return %c : tensor<2xf32>
}
)mlir");
  ASSERT_TRUE(module);
  StatusOr<std::unique_ptr<Session>> session = Open(module);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  EXPECT_EQ(CallText(**session, "get"), "hal.buffer_view\n2xf32=11 24");
}

// A splat constant is filled on the device, wherever it appears: as a global's initial value
// and as an arith.constant an initializer stores. Neither puts its 4 MiB in the module.
TEST_F(State, SplatConstantsAreFilledNotStoredInTheModule) {
  size_t size = 0;
  Ref<vm::Module> module = Compile(R"mlir(
util.global private @a = dense<2.0> : tensor<1024x1024xf32>
util.global private @b : tensor<1024x1024xf32>
util.initializer {
  %c = arith.constant dense<3.0> : tensor<1024x1024xf32>
  util.global.store %c, @b : tensor<1024x1024xf32>
  util.return
}
util.func public @corner() -> (tensor<1x3xf32>, tensor<1x3xf32>) {
  %a = util.global.load @a : tensor<1024x1024xf32>
  %b = util.global.load @b : tensor<1024x1024xf32>
  %sa = tensor.extract_slice %a[1023, 1021] [1, 3] [1, 1] : tensor<1024x1024xf32> to tensor<1x3xf32>
  %sb = tensor.extract_slice %b[1023, 1021] [1, 3] [1, 1] : tensor<1024x1024xf32> to tensor<1x3xf32>
  util.return %sa, %sb : tensor<1x3xf32>, tensor<1x3xf32>
}
)mlir",
                                     &size);
  ASSERT_TRUE(module);
  EXPECT_LT(size, 256u * 1024) << "a splat's bytes went into the module";
  for (const char* device : {"cpu-sync", "cpu"}) {
    StatusOr<std::unique_ptr<Session>> session = Open(module, {}, device);
    ASSERT_TRUE(session.ok()) << device << ": " << session.status().ToString();
    EXPECT_EQ(CallText(**session, "corner", {}, 0), "hal.buffer_view\n1x3xf32=[2 2 2]") << device;
    EXPECT_EQ(CallText(**session, "corner", {}, 1), "hal.buffer_view\n1x3xf32=[3 3 3]") << device;
  }
}

TEST_F(State, AGlobalReadBeforeAnyStoreFailsTheCallNamingIt) {
  Ref<vm::Module> module = Compile(R"mlir(
util.global private mutable @late : tensor<2xf32>
util.func public @get() -> tensor<2xf32> {
  %l = util.global.load @late : tensor<2xf32>
  util.return %l : tensor<2xf32>
}
)mlir");
  ASSERT_TRUE(module);
  StatusOr<std::unique_ptr<Session>> session = Open(module);
  ASSERT_TRUE(session.ok());
  StatusOr<std::vector<vm::Value>> results = (*session)->Call("get", {});
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(results.status().ToString().find("global @late is read before any store gave it a value"),
            std::string::npos)
      << results.status().ToString();
}

// A KV cache of 2 layers x 8 positions x 2 appended one position per call; `read` returns
// twice the cache (computed on the device: a copy), `peek` the global itself.
constexpr const char* kCache = R"mlir(
util.global private mutable @cache = dense<0.0> : tensor<2x8x2xf32>
util.func public @append(%rows: tensor<2x1x2xf32>, %pos: index) {
  %c = util.global.load @cache : tensor<2x8x2xf32>
  %u = tensor.insert_slice %rows into %c[0, %pos, 0] [2, 1, 2] [1, 1, 1] : tensor<2x1x2xf32> into tensor<2x8x2xf32>
  util.global.store %u, @cache : tensor<2x8x2xf32>
  util.return
}
util.func public @read() -> tensor<2x8x2xf32> {
  %c = util.global.load @cache : tensor<2x8x2xf32>
  %r = arith.addf %c, %c : tensor<2x8x2xf32>
  util.return %r : tensor<2x8x2xf32>
}
)mlir";

// `scale` times the cache after appending rows p*10+l (layer l, both elements) at
// positions 0..n-1.
std::string CacheText(int n, int scale = 2) {
  std::string text = "hal.buffer_view\n2x8x2xf32=";
  for (int l = 0; l < 2; ++l) {
    text += "[";
    for (int p = 0; p < 8; ++p) {
      int v = p < n ? scale * (p * 10 + l) : 0;
      text += StrCat("[", v, " ", v, "]");
    }
    text += "]";
  }
  return text;
}

class Cache : public State {
 protected:
  // Appends positions 0..n-1; returns the allocations the appends made.
  size_t Append(Session& session, int n) {
    size_t allocations = 0;
    for (int p = 0; p < n; ++p) {
      StatusOr<vm::Value> rows = ParseValue(StrCat("2x1x2xf32=", p * 10, " ", p * 10, " ", p * 10 + 1, " ", p * 10 + 1),
                                            vm::ValueKind::kRef, session.device().allocator());
      EXPECT_TRUE(rows.ok());
      size_t before = session.device().allocator().statistics().allocation_count;
      std::vector<vm::Value> args = {*rows, vm::Value::I64(p)};
      StatusOr<std::vector<vm::Value>> results = session.Call("append", args);
      EXPECT_TRUE(results.ok()) << results.status().ToString();
      allocations += session.device().allocator().statistics().allocation_count - before;
    }
    return allocations;
  }
};

TEST_F(Cache, AnAppendWritesTheGlobalInPlaceAndEveryCallSeesIt) {
  Ref<vm::Module> module = Compile(kCache);
  ASSERT_TRUE(module);
  for (const char* device : {"cpu-sync", "cpu"}) {
    StatusOr<std::unique_ptr<Session>> session = Open(module, {}, device);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    // In place: the appends allocate nothing (a copy would allocate a new cache each call).
    EXPECT_EQ(Append(**session, 5), 0u) << device;
    EXPECT_EQ(CallText(**session, "read"), CacheText(5)) << device;
    EXPECT_EQ(Append(**session, 8), 0u) << device;
    EXPECT_EQ(CallText(**session, "read"), CacheText(8)) << device;
  }
}

TEST_F(Cache, AGlobalThatEscapesKeepsTheCopyAndOldValuesStayUnchanged) {
  // `peek` returns the global's own buffer to the caller: an append in place would change
  // a tensor the caller holds, so the appends copy.
  Ref<vm::Module> module = Compile(std::string(kCache) + R"mlir(
util.func public @peek() -> tensor<2x8x2xf32> {
  %c = util.global.load @cache : tensor<2x8x2xf32>
  util.return %c : tensor<2x8x2xf32>
}
)mlir");
  ASSERT_TRUE(module);
  StatusOr<std::unique_ptr<Session>> session = Open(module);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  EXPECT_EQ(Append(**session, 2), 2u);
  StatusOr<std::vector<vm::Value>> held = (*session)->Call("peek", {});
  ASSERT_TRUE(held.ok());
  EXPECT_EQ(Append(**session, 4), 4u);
  EXPECT_EQ(*FormatValue((*held)[0]), CacheText(2, 1));
  EXPECT_EQ(CallText(**session, "read"), CacheText(4));
}

TEST_F(Cache, AnOldValueReadAfterTheWriteKeepsTheCopy) {
  // %c is read after the insert (by the subtraction): the insert must not clobber it.
  Ref<vm::Module> module = Compile(R"mlir(
util.global private mutable @g = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
util.func public @bump(%x: tensor<1xf32>) -> tensor<4xf32> {
  %c = util.global.load @g : tensor<4xf32>
  %c2 = util.global.load @g : tensor<4xf32>
  %u = tensor.insert_slice %x into %c2[1] [1] [1] : tensor<1xf32> into tensor<4xf32>
  util.global.store %u, @g : tensor<4xf32>
  %d = arith.subf %u, %c : tensor<4xf32>
  util.return %d : tensor<4xf32>
}
)mlir");
  ASSERT_TRUE(module);
  StatusOr<std::unique_ptr<Session>> session = Open(module);
  ASSERT_TRUE(session.ok());
  StatusOr<vm::Value> x = ParseValue("1xf32=7", vm::ValueKind::kRef, (*session)->device().allocator());
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(CallText(**session, "bump", {*x}), "hal.buffer_view\n4xf32=0 5 0 0");
  EXPECT_EQ(CallText(**session, "bump", {*x}), "hal.buffer_view\n4xf32=0 0 0 0");
}

constexpr const char* kWeights = R"mlir(
util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<4xf32>
util.global private @b = #stream.parameter.named<"bias"> : tensor<4xf32>
util.func public @apply(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = util.global.load @w : tensor<4xf32>
  %b = util.global.load @b : tensor<4xf32>
  %xw = arith.mulf %x, %w : tensor<4xf32>
  %r = arith.addf %xw, %b : tensor<4xf32>
  util.return %r : tensor<4xf32>
}
)mlir";

TEST_F(State, ParametersFillGlobalsFromEveryFormatAndScope) {
  Ref<vm::Module> module = Compile(kWeights);
  ASSERT_TRUE(module);
  iot::IrpaBuilder irpa;
  irpa.Data("w", Floats({1, 2, 3, 4}));
  std::string irpa_path = WriteFileOf("w.irpa", irpa.Build());
  std::string st_path = WriteFileOf("b.safetensors", iot::SafetensorsFile({{"bias", "F32", {4}, Floats({0.5, 0.5, 0.5, 0.5})}}));
  // (The same program on hip-sim, compiled for gfx942: tests/lit/e2e/globals_parameters.mlir.)
  for (const char* device : {"cpu-sync", "cpu"}) {
    for (ParameterMode mode : {ParameterMode::kFile, ParameterMode::kPreload}) {
      SessionOptions options;
      options.parameter_mode = mode;
      options.parameters = MakeRef<io::ParameterProvider>();
      ASSERT_TRUE(options.parameters->AddFlag("model=" + irpa_path).ok());
      ASSERT_TRUE(options.parameters->AddFlag(st_path).ok());
      StatusOr<std::unique_ptr<Session>> session = Open(module, options, device);
      ASSERT_TRUE(session.ok()) << session.status().ToString();
      StatusOr<vm::Value> x = ParseValue("4xf32=1 1 2 2", vm::ValueKind::kRef, (*session)->device().allocator());
      ASSERT_TRUE(x.ok());
      EXPECT_EQ(CallText(**session, "apply", {*x}), "hal.buffer_view\n4xf32=1.5 2.5 6.5 8.5") << device;
    }
  }
}

TEST_F(State, ParametersAreUsedInPlaceOnTheCpu) {
  Ref<vm::Module> module = Compile(kWeights);
  ASSERT_TRUE(module);
  iot::IrpaBuilder irpa;
  irpa.Data("w", Floats({1, 2, 3, 4})).Data("bias", Floats({0, 0, 0, 0}));
  std::string path = WriteFileOf("wb.irpa", irpa.Build());
  for (ParameterMode mode : {ParameterMode::kFile, ParameterMode::kPreload}) {
    SessionOptions options{MakeRef<io::ParameterProvider>(), mode};
    ASSERT_TRUE(options.parameters->AddFile("model", path).ok());
    ASSERT_TRUE(options.parameters->AddFile("", path).ok());
    StatusOr<std::unique_ptr<Session>> session = Open(module, options);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    // The allocator counts what it allocated: nothing for the two mapped parameters in file
    // mode, their 32 bytes when preloaded.
    size_t allocated = (*session)->device().allocator().statistics().bytes_allocated;
    if (mode == ParameterMode::kFile) {
      EXPECT_EQ(allocated, 0u);
    } else {
      EXPECT_EQ(allocated, 32u);
    }
  }
}

// The session's creation fails with `what` in the message.
void ExpectOpenFails(StatusOr<std::unique_ptr<Session>> session, const std::string& what) {
  ASSERT_FALSE(session.ok());
  EXPECT_NE(session.status().ToString().find(what), std::string::npos) << session.status().ToString();
}

TEST_F(State, ParameterErrorsNameTheKeyTheFileAndWhatWasExpected) {
  Ref<vm::Module> module = Compile(kWeights);
  ASSERT_TRUE(module);
  ExpectOpenFails(Open(module), "no parameter files were given; pass --parameters=model=FILE");

  SessionOptions missing{MakeRef<io::ParameterProvider>()};
  iot::IrpaBuilder other;
  other.Data("v", Floats({1, 2, 3, 4}));
  ASSERT_TRUE(missing.parameters->AddFile("model", WriteFileOf("v.irpa", other.Build())).ok());
  ExpectOpenFails(Open(module, missing), "no parameter 'w' in scope 'model'");

  SessionOptions short_entry{MakeRef<io::ParameterProvider>()};
  iot::IrpaBuilder small;
  small.Data("w", Floats({1, 2}));
  ASSERT_TRUE(short_entry.parameters->AddFile("model", WriteFileOf("short.irpa", small.Build())).ok());
  ExpectOpenFails(Open(module, short_entry), "holds 8 bytes; the program's global is 4xf32 (16 bytes); for parameter 'model'::'w'");

  SessionOptions wrong_type{MakeRef<io::ParameterProvider>()};
  ASSERT_TRUE(wrong_type.parameters->AddFile("model", WriteFileOf("w16.safetensors",
                                                                  iot::SafetensorsFile({{"w", "F16", {8}, iot::Iota(16)}})))
                  .ok());
  ExpectOpenFails(Open(module, wrong_type), "it is 8xf16; the program's global is 4xf32");
}

}  // namespace
}  // namespace kiln::runtime
