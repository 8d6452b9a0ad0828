// Volume layout of hydroelastic meshes and finalize's volume stage (mesh_sdf.h).
#include "e3/collision/mesh_sdf.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "e1/model.h"

namespace impulse {

SdfVolume mesh_sdf_layout(const std::vector<vec3>& points, real voxel_size, int max_resolution, real padding,
                          const std::string& who) {
  vec3 lo{1e30, 1e30, 1e30}, hi{-1e30, -1e30, -1e30};
  for (const vec3& p : points) lo = vmin(lo, p), hi = vmax(hi, p);
  const vec3 size = hi - lo;
  const real longest = std::max({size.x, size.y, size.z});
  const bool by_size = voxel_size > 0;
  SdfVolume v;
  v.voxel = by_size ? voxel_size : longest / real(max_resolution);
  const real pad = padding >= 0 ? padding : 2 * v.voxel;
  const double h = v.voxel;
  const double l[3] = {std::floor((lo.x - pad) / h), std::floor((lo.y - pad) / h), std::floor((lo.z - pad) / h)};
  const double u[3] = {std::ceil((hi.x + pad) / h), std::ceil((hi.y + pad) / h), std::ceil((hi.z + pad) / h)};
  const double n[3] = {u[0] - l[0] + 1, u[1] - l[1] + 1, u[2] - l[2] + 1};
  const double total = n[0] * n[1] * n[2];
  if (!(total <= double(kSdfMaxSamples))) {
    // The smallest voxel that fits, from the box alone (the padding is kept).
    const double fit = h * std::cbrt(total / double(kSdfMaxSamples)) * 1.01;
    std::ostringstream msg;
    msg << who << ": ShapeConfig."
        << (by_size ? "sdf_target_voxel_size = " + std::to_string(voxel_size) + " m"
                    : "sdf_max_resolution = " + std::to_string(max_resolution))
        << " needs " << n[0] << " x " << n[1] << " x " << n[2] << " = " << total
        << " volume samples, more than the " << kSdfMaxSamples
        << " (256^3, 128 MiB) one shape may hold: use a voxel size >= " << fit << " m";
    throw std::invalid_argument(msg.str());
  }
  v.lo = {real(l[0] * h), real(l[1] * h), real(l[2] * h)};
  v.nx = int(n[0]), v.ny = int(n[1]), v.nz = int(n[2]);
  return v;
}

void finalize_sdf_volumes(const ModelBuilder& b, Device d, Model& m) {
  std::vector<int> of_shape(std::size_t(b.shape_count()), -1);
  std::vector<SdfVolume> volumes;
  std::int64_t total = 0;
  for (const SdfMeshSource& src : b.sdf_mesh_sources) {
    SdfVolume v = src.layout;
    v.start = total;
    total += std::int64_t(v.nx) * v.ny * v.nz;
    of_shape[std::size_t(src.shape)] = int(volumes.size());
    volumes.push_back(v);
  }
  std::vector<real> values(std::size_t(total), 0);
  for (std::size_t k = 0; k < volumes.size(); ++k)
    build_mesh_sdf(b.sdf_mesh_sources[k], values.data() + volumes[k].start);
  m.shape_sdf_volume = Buffer<int>(d, of_shape);
  m.sdf_volumes = Buffer<SdfVolume>(d, volumes);
  m.sdf_values = Buffer<real>(d, values);
}

}  // namespace impulse
