#include "dense_network.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "elementwise.h"
#include "fast_math.h"
#include "matmul.h"
#include "thread_pool.h"

namespace partonfit {

namespace {

// Runs body(r) for every replica, across the pool when the replicas hold enough elements.
template <class Body>
void for_replicas(int64_t replicas, int64_t per_replica, Body body) {
  if (replicas < 2 || replicas * per_replica < kParallelElements) {
    for (int64_t r = 0; r < replicas; ++r) body(r);
    return;
  }
  const int64_t grain = std::max<int64_t>(1, kParallelElements / 2 / std::max<int64_t>(per_replica, 1));
  ThreadPool::instance().parallel_for(replicas, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) body(r);
  });
}

Activation activation_of(const DenseNetwork& network, int64_t layer, int64_t replica) {
  return static_cast<Activation>(network.activations[layer * network.replicas + replica]);
}

// a = activation(z) over count elements, with the element-wise kernels' own functions so that
// the numbers are those of the separate kernels.
void activate(Activation activation, float alpha, const float* z, float* a, int64_t count) {
  switch (activation) {
    case Activation::kLinear:
      std::copy(z, z + count, a);
      return;
    case Activation::kTanh:
      return unary_serial(UnaryOp::kTanh, 0.0f, z, a, count);
    case Activation::kSigmoid:
      return unary_serial(UnaryOp::kSigmoid, 0.0f, z, a, count);
    case Activation::kRelu:
      return unary_serial(UnaryOp::kRelu, 0.0f, z, a, count);
    case Activation::kElu:
      return unary_serial(UnaryOp::kElu, 0.0f, z, a, count);
    case Activation::kSoftplus:
      return unary_serial(UnaryOp::kSoftplus, 0.0f, z, a, count);
    case Activation::kSquare:
      return unary_serial(UnaryOp::kSquare, 0.0f, z, a, count);
    case Activation::kLeakyRelu:
      return unary_serial(UnaryOp::kLeakyRelu, alpha, z, a, count);
    case Activation::kModifiedTanh:
      unary_serial(UnaryOp::kTanh, 0.0f, z, a, count);
      for (int64_t i = 0; i < count; ++i) a[i] = std::fabs(z[i]) * a[i];
      return;
  }
}

// dz = g ⊙ activation'(z), in the float32 operations of the activations' tfjs gradients.
void differentiate(Activation activation, float alpha, const float* g, const float* z,
                   const float* a, float* dz, int64_t count) {
  switch (activation) {
    case Activation::kLinear:
      std::copy(g, g + count, dz);
      return;
    case Activation::kTanh:
      for (int64_t i = 0; i < count; ++i) dz[i] = g[i] * (1.0f - a[i] * a[i]);
      return;
    case Activation::kSigmoid:
      for (int64_t i = 0; i < count; ++i) dz[i] = g[i] * (a[i] * (1.0f - a[i]));
      return;
    case Activation::kRelu:
      for (int64_t i = 0; i < count; ++i) {
        dz[i] = g[i] * (std::isnan(z[i]) ? z[i] : (z[i] > 0.0f ? 1.0f : 0.0f));
      }
      return;
    case Activation::kElu:
      for (int64_t i = 0; i < count; ++i) dz[i] = a[i] >= 0.0f ? g[i] : g[i] * (a[i] + 1.0f);
      return;
    case Activation::kSoftplus:
      for (int64_t i = 0; i < count; ++i) dz[i] = g[i] * fast_sigmoid_one(z[i]);
      return;
    case Activation::kSquare:
      for (int64_t i = 0; i < count; ++i) dz[i] = g[i] * (z[i] * 2.0f);
      return;
    case Activation::kLeakyRelu:
      for (int64_t i = 0; i < count; ++i) dz[i] = z[i] > 0.0f ? g[i] : g[i] * alpha;
      return;
    case Activation::kModifiedTanh:
      for (int64_t i = 0; i < count; ++i) {
        // a = |z| · t: the product's two paths, d|z| = sign (−1 at 0, as tfjs' Abs gradient)
        const float t = fast_tanh_one(z[i]);
        const float sign = std::isnan(z[i]) ? z[i] : (z[i] > 0.0f ? 1.0f : -1.0f);
        dz[i] = (g[i] * t) * sign + (g[i] * std::fabs(z[i])) * (1.0f - t * t);
      }
      return;
  }
}

}  // namespace

int64_t dense_network_tape_size(const DenseNetwork& network) {
  const int64_t units = std::accumulate(network.units.begin(), network.units.end(), int64_t{0});
  return 2 * network.replicas * network.points * units;
}

void dense_network_forward(const DenseNetwork& network, const float* input,
                           const std::vector<const float*>& kernels,
                           const std::vector<const float*>& biases, float* output, float* tape) {
  const int64_t replicas = network.replicas;
  const int64_t points = network.points;
  std::vector<int32_t> replica_rows(static_cast<size_t>(replicas));
  std::iota(replica_rows.begin(), replica_rows.end(), 0);
  const float* h = input;
  int64_t features = network.inputs;
  bool shared = network.shared_input;
  float* at = tape;
  for (size_t l = 0; l < network.units.size(); ++l) {
    const int64_t units = network.units[l];
    const int64_t block = points * units;
    float* z = at;
    float* a = at + replicas * block;
    at += 2 * replicas * block;
    MatMulProblem product;
    product.a = h;
    product.b = kernels[l];
    product.out = z;
    product.batch = replicas;
    product.m = points;
    product.n = units;
    product.k = features;
    product.a_matrices = shared ? 1 : replicas;
    product.b_matrices = replicas;
    MatMulEpilogue bias;
    bias.bias = biases[l];
    bias.bias_index = replica_rows.data();
    matmul(product, bias);
    const int64_t layer = static_cast<int64_t>(l);
    for_replicas(replicas, block, [&](int64_t r) {
      activate(activation_of(network, layer, r), network.leaky_relu_alpha, z + r * block,
               a + r * block, block);
    });
    h = a;
    features = units;
    shared = false;
  }
  std::copy(h, h + replicas * points * features, output);
}

void dense_network_backward(const DenseNetwork& network, const float* output_gradient,
                            const float* input, const std::vector<const float*>& kernels,
                            const float* tape, float* input_gradient,
                            const std::vector<float*>& kernel_gradients,
                            const std::vector<float*>& bias_gradients) {
  const int64_t replicas = network.replicas;
  const int64_t points = network.points;
  const int64_t layers = static_cast<int64_t>(network.units.size());
  std::vector<int64_t> offsets(static_cast<size_t>(layers));
  int64_t widest = network.inputs;
  for (int64_t l = 0, at = 0; l < layers; ++l) {
    offsets[l] = at;
    at += 2 * replicas * points * network.units[l];
    widest = std::max(widest, network.units[l]);
  }
  std::vector<float> dz(static_cast<size_t>(replicas * points * widest));
  std::vector<float> g(static_cast<size_t>(replicas * points * widest));
  std::copy(output_gradient, output_gradient + replicas * points * network.units[layers - 1],
            g.begin());
  std::vector<float> previous(g.size());
  for (int64_t l = layers - 1; l >= 0; --l) {
    const int64_t units = network.units[l];
    const int64_t features = l == 0 ? network.inputs : network.units[l - 1];
    const int64_t block = points * units;
    const float* z = tape + offsets[l];
    const float* a = z + replicas * block;
    for_replicas(replicas, block, [&](int64_t r) {
      const int64_t at = r * block;
      differentiate(activation_of(network, l, r), network.leaky_relu_alpha, g.data() + at, z + at,
                    a + at, dz.data() + at, block);
      float* bias_gradient = bias_gradients[l] + r * units;
      std::fill(bias_gradient, bias_gradient + units, 0.0f);
      for (int64_t p = 0; p < points; ++p) {
        const float* row = dz.data() + at + p * units;
        for (int64_t u = 0; u < units; ++u) bias_gradient[u] += row[u];
      }
    });
    const bool shared = l == 0 && network.shared_input;
    const float* h = l == 0 ? input : tape + offsets[l - 1] + replicas * points * features;
    MatMulProblem kernel_product;
    kernel_product.a = h;
    kernel_product.b = dz.data();
    kernel_product.out = kernel_gradients[l];
    kernel_product.batch = replicas;
    kernel_product.m = features;
    kernel_product.n = units;
    kernel_product.k = points;
    kernel_product.transpose_a = true;
    kernel_product.a_matrices = shared ? 1 : replicas;
    kernel_product.b_matrices = replicas;
    matmul(kernel_product, MatMulEpilogue{});
    MatMulProblem input_product;
    input_product.a = dz.data();
    input_product.b = kernels[l];
    input_product.out = previous.data();
    input_product.batch = replicas;
    input_product.m = points;
    input_product.n = features;
    input_product.k = units;
    input_product.transpose_b = true;
    input_product.a_matrices = replicas;
    input_product.b_matrices = replicas;
    matmul(input_product, MatMulEpilogue{});
    std::swap(g, previous);
  }
  const int64_t input_block = points * network.inputs;
  if (!network.shared_input) {
    std::copy(g.data(), g.data() + replicas * input_block, input_gradient);
    return;
  }
  std::copy(g.data(), g.data() + input_block, input_gradient);
  for (int64_t r = 1; r < replicas; ++r) {
    const float* replica = g.data() + r * input_block;
    for (int64_t i = 0; i < input_block; ++i) input_gradient[i] += replica[i];
  }
}

}  // namespace partonfit
