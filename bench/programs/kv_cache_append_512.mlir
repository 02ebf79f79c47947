// A KV cache of 32 layers x 512 positions x 1024 f16 (util.global, zero-filled at load),
// appended one position per call: written in place (kiln-form-dispatches, InPlaceUpdates.h),
// so the append moves 64 KiB whatever the cache size (compare kv_cache_append_512/4096).
util.global private mutable @cache = dense<0.0> : tensor<32x512x1024xf16>
util.func public @append(%rows: tensor<32x1x1024xf16>, %pos: index) {
  %c = util.global.load @cache : tensor<32x512x1024xf16>
  %u = tensor.insert_slice %rows into %c[0, %pos, 0] [32, 1, 1024] [1, 1, 1] : tensor<32x1x1024xf16> into tensor<32x512x1024xf16>
  util.global.store %u, @cache : tensor<32x512x1024xf16>
  util.return
}
