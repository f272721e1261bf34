{
  "targets": [
    {
      "target_name": "partonfit_native",
      "sources": [
        "native/addon.cc",
        "native/blas.cc",
        "native/dense_network.cc",
        "native/elementwise.cc",
        "native/fast_math.cc",
        "native/layout.cc",
        "native/luminosity.cc",
        "native/luminosity_planes.cc",
        "native/matmul.cc",
        "native/optimizer.cc",
        "native/own_blas.cc",
        "native/peak.cc",
        "native/reduce.cc",
        "native/simd.cc",
        "native/small_gemm.cc",
        "native/stopping.cc",
        "native/thread_pool.cc"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-std=gnu++17", "-std=gnu++20"],
      "cflags_cc": [
        "-std=c++17",
        "-O3",
        "-fopenmp-simd",
        "-fno-math-errno",
        "-fno-trapping-math",
        "<!@(node scripts/cblas-flags.js --cflags)"
      ],
      "libraries": ["<!@(node scripts/cblas-flags.js --libs)", "-pthread"],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "OTHER_CPLUSPLUSFLAGS": ["-std=c++17", "-O3", "<!@(node scripts/cblas-flags.js --cflags)"]
      }
    }
  ]
}
