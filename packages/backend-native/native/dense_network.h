// A whole stack of per-replica dense layers in one pass forward and one pass backward: for every
// replica r and layer l, z = h @ kernel_l[r] + bias_l[r] and a = activation_{l,r}(z), each
// replica with its own activation and width per layer, or passing a layer through. Replicas
// never mix: each replica's whole network runs on one thread, in the products matmul() would
// use for its own sizes.
#pragma once

#include <cstdint>
#include <vector>

namespace partonfit {

// The activations, numbered as DENSE_ACTIVATIONS of @partonfit/backend.
enum class Activation : int32_t {
  kLinear = 0,
  kTanh = 1,
  kSigmoid = 2,
  kRelu = 3,
  kElu = 4,
  kSoftplus = 5,
  kSquare = 6,
  kLeakyRelu = 7,
  kModifiedTanh = 8,
};
constexpr int32_t kActivationCount = 9;

struct DenseNetwork {
  int64_t replicas = 0;
  int64_t points = 0;
  int64_t inputs = 0;         // features of the network's input
  bool shared_input = false;  // input (points, inputs) for every replica, else (replicas, ...)
  std::vector<int64_t> units; // per layer: the widest replica's
  const int32_t* activations = nullptr;  // (layers, replicas), each an Activation
  // (layers, replicas): replica r's own units in layer l (<= units[l]); it reads the first
  // widths of its kernel block, and its other units are 0 with gradients 0.
  const int32_t* widths = nullptr;
  // (layers, replicas): nonzero where replica r passes layer l through (its output is its input,
  // as wide; its weights there are not read and get gradient 0).
  const int32_t* pass_through = nullptr;
  float leaky_relu_alpha = 0.0f;
};

// Floats of the tape: per layer, z then a, each (replicas, points, units_l). The forward writes
// z only where the activation's gradient reads it (not for linear, tanh, sigmoid or elu, whose
// z is a or is not needed), and neither for a linear last layer.
int64_t dense_network_tape_size(const DenseNetwork& network);

// output (replicas, points, units_last); tape as dense_network_tape_size says. kernels[l] is
// (replicas, in_l, units_l), biases[l] (replicas, units_l), in_l the previous layer's units.
void dense_network_forward(const DenseNetwork& network, const float* input,
                           const std::vector<const float*>& kernels,
                           const std::vector<const float*>& biases, float* output, float* tape);

// The gradients of Σ output_gradient ⊙ output: with respect to the input (its shape), every
// kernel and every bias, from the forward's tape.
void dense_network_backward(const DenseNetwork& network, const float* output_gradient,
                            const float* input, const std::vector<const float*>& kernels,
                            const float* tape, float* input_gradient,
                            const std::vector<float*>& kernel_gradients,
                            const std::vector<float*>& bias_gradients);

}  // namespace partonfit
