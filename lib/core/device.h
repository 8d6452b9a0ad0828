// Device selection: where arrays live and kernels run.
#pragma once

#include <string>

namespace impulse {

enum class Device { cpu, cuda };

/// True when this build compiled its kernels with nvcc.
bool cuda_built();

/// Number of CUDA GPUs visible to this process (0 when CUDA is not built or no GPU is present).
int cuda_device_count();

/// Resolves "cpu", "cuda" or "auto". "auto" picks cuda when it is built and a GPU is present,
/// else cpu. "cuda" without CUDA support or without a GPU throws std::runtime_error saying which.
/// Anything else throws std::invalid_argument naming the bad value.
Device select_device(const std::string& name);

const char* device_name(Device d);

/// One line describing the backends of this build, e.g. "cpu (2 OpenMP threads); cuda: not built".
std::string backend_summary();

}  // namespace impulse
