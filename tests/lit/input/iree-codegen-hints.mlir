// IREE's codegen-configuration attributes (#iree_codegen, #iree_gpu, #iree_cpu) parse as
// hints kiln keeps as written and does not use: they print back unchanged, and the ops
// carrying them compile as without them.
// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-compile %s -o %t.kiln && kiln-run --module=%t.kiln --function=add --input=4xf32=1,2,3,4 | FileCheck %s --check-prefix=OUT

// CHECK-LABEL: func.func @add
// CHECK-SAME: cpu = #iree_cpu.lowering_config<distribution = [4]>
// CHECK-SAME: lowering_config = #iree_gpu.lowering_config<{thread = [8], subgroup_basis = {{\[}}[1], [0]]}>
// CHECK-SAME: translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] subgroup_size = 64>
// CHECK: linalg.generic {{.*}}compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4]>, translation_info = #iree_codegen.translation_info<CPUDefault>>
// OUT: 4xf32=2 4 6 8
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] subgroup_size = 64>
#config = #iree_gpu.lowering_config<{thread = [8], subgroup_basis = [[1], [0]]}>
func.func @add(%a: tensor<4xf32>) -> tensor<4xf32> attributes {translation_info = #translation, lowering_config = #config, cpu = #iree_cpu.lowering_config<distribution = [4]>} {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>)
      attrs = {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4]>, translation_info = #iree_codegen.translation_info<CPUDefault>>} {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
