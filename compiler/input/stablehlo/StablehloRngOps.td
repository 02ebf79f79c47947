// StableHLO's random bit generator:
//   %state, %bits = "stablehlo.rng_bit_generator"(%seed) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
//       : (tensor<4xi32>) -> (tensor<4xi32>, tensor<8xi32>)
// Generic form. Verifier in StablehloShapeOps.cc; lowering in lowering/RngLowering.cc.
#ifndef KILN_COMPILER_INPUT_STABLEHLO_RNGOPS
#define KILN_COMPILER_INPUT_STABLEHLO_RNGOPS

include "StablehloBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Stablehlo_RngBitGeneratorOp : Stablehlo_Op<"rng_bit_generator", [Pure]> {
  let summary = "Random bits from a counter-based generator, and the advanced state";
  let description = [{
    The state holds the key and a 64-bit counter. Each output block is the generator
    applied to the key and counter + its block number: THREE_FRY (Threefry-2x32, 20 rounds)
    gives blocks of two words, PHILOX (Philox-4x32, 10 rounds) of four; the output state is
    the counter advanced by the blocks used. The state's word order is XLA's: for a
    tensor<4xi32> state [s0, s1, s2, s3] the key is (s0, s1) and the counter's low word
    s3, its high word s2 (Philox's counter words 2 and 3 are the key's). DEFAULT is
    THREE_FRY.
  }];
  let arguments = (ins AnyRankedTensor:$initial_state, Stablehlo_RngAlgorithmAttr:$rng_algorithm);
  let results = (outs AnyRankedTensor:$output_state, AnyRankedTensor:$output);
  let hasVerifier = 1;
}

#endif  // KILN_COMPILER_INPUT_STABLEHLO_RNGOPS
