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
  const int64_t grain =
      std::max<int64_t>(1, kParallelElements / 2 / std::max<int64_t>(per_replica, 1));
  ThreadPool::instance().parallel_for(replicas, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) body(r);
  });
}

// One replica's view of one layer.
struct ReplicaLayer {
  Activation activation;
  int64_t inputs;  // its own input width
  int64_t width;   // its own units
  int64_t stride;  // the layer's units: the row length of its blocks
  int64_t input_stride;
  bool passes;
};

ReplicaLayer replica_layer(const DenseNetwork& network, int64_t l, int64_t r) {
  const int64_t at = l * network.replicas + r;
  const auto own_width = [&](int64_t layer) {
    return network.widths != nullptr ? int64_t{network.widths[layer * network.replicas + r]}
                                     : network.units[layer];
  };
  return {static_cast<Activation>(network.activations[at]),
          l == 0 ? network.inputs : own_width(l - 1),
          own_width(l),
          network.units[l],
          l == 0 ? network.inputs : network.units[l - 1],
          network.pass_through != nullptr && network.pass_through[at] != 0};
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

// Whether the gradient of an activation reads its input z, not only its output a.
bool gradient_reads_input(Activation activation) {
  switch (activation) {
    case Activation::kLinear:
    case Activation::kTanh:
    case Activation::kSigmoid:
    case Activation::kElu:
      return false;
    default:
      return true;
  }
}

// dz = g ⊙ activation'(z), in the float32 operations of the activations' tfjs gradients (tanh and
// sigmoid by the array forms, whose results do not depend on an element's position).
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
      fast_sigmoid(z, dz, count);
      for (int64_t i = 0; i < count; ++i) dz[i] = g[i] * dz[i];
      return;
    case Activation::kSquare:
      for (int64_t i = 0; i < count; ++i) dz[i] = g[i] * (z[i] * 2.0f);
      return;
    case Activation::kLeakyRelu:
      for (int64_t i = 0; i < count; ++i) dz[i] = z[i] > 0.0f ? g[i] : g[i] * alpha;
      return;
    case Activation::kModifiedTanh:
      fast_tanh(z, dz, count);
      for (int64_t i = 0; i < count; ++i) {
        // a = |z| · t: the product's two paths, d|z| = sign (−1 at 0, as tfjs' Abs gradient)
        const float t = dz[i];
        const float sign = std::isnan(z[i]) ? z[i] : (z[i] > 0.0f ? 1.0f : -1.0f);
        dz[i] = (g[i] * t) * sign + (g[i] * std::fabs(z[i])) * (1.0f - t * t);
      }
      return;
  }
}

// Copies `columns` of each of `rows` rows from a block of row length `from_stride` to one of
// `to_stride`, and zeroes the rest of each destination row.
void copy_columns(const float* from, int64_t from_stride, float* to, int64_t to_stride,
                  int64_t rows, int64_t columns) {
  for (int64_t p = 0; p < rows; ++p) {
    std::copy(from + p * from_stride, from + p * from_stride + columns, to + p * to_stride);
    std::fill(to + p * to_stride + columns, to + (p + 1) * to_stride, 0.0f);
  }
}

// The tape's offset of layer l's z: per layer z then a, each (replicas, points, units_l).
std::vector<int64_t> tape_offsets(const DenseNetwork& network) {
  std::vector<int64_t> offsets;
  int64_t at = 0;
  for (const int64_t units : network.units) {
    offsets.push_back(at);
    at += 2 * network.replicas * network.points * units;
  }
  return offsets;
}

int64_t replica_work(const DenseNetwork& network) {
  int64_t work = 0;
  int64_t in = network.inputs;
  for (const int64_t units : network.units) {
    work += network.points * in * units;
    in = units;
  }
  return work;
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
  const int64_t layers = static_cast<int64_t>(network.units.size());
  const std::vector<int64_t> offsets = tape_offsets(network);
  for_replicas(replicas, replica_work(network), [&](int64_t r) {
    const float* h = network.shared_input ? input : input + r * points * network.inputs;
    bool written = false;
    for (int64_t l = 0; l < layers; ++l) {
      const ReplicaLayer layer = replica_layer(network, l, r);
      const int64_t block = points * layer.stride;
      float* z = tape + offsets[l] + r * block;
      float* a = z + replicas * block;
      if (layer.passes) {
        copy_columns(h, layer.input_stride, a, layer.stride, points, layer.width);
        h = a;
        continue;
      }
      // z goes on the tape only where the gradient reads it; a linear last layer's values, which
      // the gradient never reads, go straight to the output
      const bool linear = layer.activation == Activation::kLinear;
      const bool keeps_z = gradient_reads_input(layer.activation);
      written = l == layers - 1 && linear;
      float* values = written ? output + r * block : keeps_z ? z : a;
      const float* kernel = kernels[l] + r * layer.input_stride * layer.stride;
      const float* bias = biases[l] + r * layer.stride;
      // the whole block is written: the columns past the replica's width are zeroed below
      matmul_serial(false, false, h, layer.input_stride, kernel, layer.stride, values,
                    layer.stride, layer.stride, points, layer.width, layer.inputs);
      for (int64_t p = 0; p < points; ++p) {
        float* row = values + p * layer.stride;
        for (int64_t u = 0; u < layer.width; ++u) row[u] += bias[u];
        std::fill(row + layer.width, row + layer.stride, 0.0f);
      }
      h = values;
      if (linear) continue;
      // the whole block in one call (an element's value does not depend on its position, and the
      // activations may run in place), then the columns past the replica's width back to zero
      activate(layer.activation, network.leaky_relu_alpha, values, a, block);
      if (layer.width < layer.stride) {
        for (int64_t p = 0; p < points; ++p) {
          std::fill(a + p * layer.stride + layer.width, a + (p + 1) * layer.stride, 0.0f);
        }
      }
      h = a;
    }
    if (written) return;
    const int64_t last = network.units.back();
    std::copy(h, h + points * last, output + r * points * last);
  });
}

void dense_network_backward(const DenseNetwork& network, const float* output_gradient,
                            const float* input, const std::vector<const float*>& kernels,
                            const float* tape, float* input_gradient,
                            const std::vector<float*>& kernel_gradients,
                            const std::vector<float*>& bias_gradients) {
  const int64_t replicas = network.replicas;
  const int64_t points = network.points;
  const int64_t layers = static_cast<int64_t>(network.units.size());
  const std::vector<int64_t> offsets = tape_offsets(network);
  const int64_t widest =
      std::max(network.inputs, *std::max_element(network.units.begin(), network.units.end()));
  const int64_t input_block = points * network.inputs;
  // each replica's input gradient, summed over the replicas afterwards for a shared input
  std::vector<float> shared_gradients(network.shared_input ? replicas * input_block : 0);
  for_replicas(replicas, replica_work(network), [&](int64_t r) {
    std::vector<float> g(static_cast<size_t>(points * widest));
    std::vector<float> previous(g.size());
    std::vector<float> dz(g.size());
    const int64_t last = network.units.back();
    std::copy(output_gradient + r * points * last, output_gradient + (r + 1) * points * last,
              g.begin());
    for (int64_t l = layers - 1; l >= 0; --l) {
      const ReplicaLayer layer = replica_layer(network, l, r);
      const int64_t block = points * layer.stride;
      float* kernel_gradient = kernel_gradients[l] + r * layer.input_stride * layer.stride;
      float* bias_gradient = bias_gradients[l] + r * layer.stride;
      std::fill(kernel_gradient, kernel_gradient + layer.input_stride * layer.stride, 0.0f);
      std::fill(bias_gradient, bias_gradient + layer.stride, 0.0f);
      if (layer.passes) {
        copy_columns(g.data(), layer.stride, previous.data(), layer.input_stride, points,
                     layer.width);
        std::swap(g, previous);
        continue;
      }
      const float* z = tape + offsets[l] + r * block;
      const float* a = z + replicas * block;
      // the whole block in one call: past the replica's width g, z and a are zero, and so is dz
      differentiate(layer.activation, network.leaky_relu_alpha, g.data(), z, a, dz.data(), block);
      for (int64_t p = 0; p < points; ++p) {
        const float* row = dz.data() + p * layer.stride;
        for (int64_t u = 0; u < layer.width; ++u) bias_gradient[u] += row[u];
      }
      const float* h = l == 0 ? (network.shared_input ? input : input + r * input_block)
                              : tape + offsets[l - 1] + (replicas + r) * points * layer.input_stride;
      matmul_serial(true, false, h, layer.input_stride, dz.data(), layer.stride, kernel_gradient,
                    layer.stride, layer.width, layer.inputs, layer.width, points);
      const float* kernel = kernels[l] + r * layer.input_stride * layer.stride;
      matmul_serial(false, true, dz.data(), layer.stride, kernel, layer.stride, previous.data(),
                    layer.input_stride, layer.input_stride, points, layer.inputs, layer.width);
      for (int64_t p = 0; p < points; ++p) {
        float* row = previous.data() + p * layer.input_stride;
        std::fill(row + layer.inputs, row + layer.input_stride, 0.0f);
      }
      std::swap(g, previous);
    }
    float* replica_gradient = network.shared_input ? shared_gradients.data() + r * input_block
                                                   : input_gradient + r * input_block;
    std::copy(g.data(), g.data() + input_block, replica_gradient);
  });
  if (!network.shared_input) return;
  std::copy(shared_gradients.data(), shared_gradients.data() + input_block, input_gradient);
  for (int64_t r = 1; r < replicas; ++r) {
    const float* replica = shared_gradients.data() + r * input_block;
    for (int64_t i = 0; i < input_block; ++i) input_gradient[i] += replica[i];
  }
}

}  // namespace partonfit
