// ScratchArray: a fixed-capacity working array of a device-safe function whose elements start
// uninitialised.
//
// vec3 zero-initialises its members, so a plain local array of vec3 (or of a struct holding vec3s)
// is zeroed on every call: the narrow phase's candidate buffer (48 contacts, 4.2 kB per pair), EPA's
// polytope (128 support vertices and 256 faces, 23 kB per call) and the manifold's feature arrays
// were cleared for each pair before being written, which was most of collide_shape_pair's own time
// on a sphere pile. Every user writes an element before reading it, so nothing reads the
// uninitialised storage and results are unchanged.
#pragma once

#include "core/hd.h"

namespace impulse {

/// Indexed and passed as a T* through its conversion (a[i], f(a)).
template <class T, int N>
struct ScratchArray {
  union {
    T v[N];  // elements [0, N): written before read by every user
  };
  IMPULSE_HD ScratchArray() {}
  IMPULSE_HD operator T*() { return v; }
  IMPULSE_HD operator const T*() const { return v; }
};

}  // namespace impulse
