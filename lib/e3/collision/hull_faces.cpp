// convex_hull_faces through Qhull's reentrant C library (libqhull_r). Qhull's headers define many
// macros, so they are kept out of every other translation unit.
#include "e3/collision/hull_faces.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include <libqhull_r/qhull_ra.h>

namespace impulse {

namespace {

// Qhull's messages go to a memory stream; the first line names the failure (e.g. QH6154 for a
// flat initial simplex).
struct MessageStream {
  char* text = nullptr;
  std::size_t size = 0;
  FILE* file = open_memstream(&text, &size);
  ~MessageStream() {
    if (file) std::fclose(file);
    std::free(text);
  }
  std::string first_line() {
    std::fflush(file);
    const std::string s = text ? std::string(text, size) : std::string();
    const std::size_t end = s.find('\n');
    return end == std::string::npos ? s : s.substr(0, end);
  }
};

}  // namespace

HullFaces convex_hull_faces(const std::vector<vec3>& points, const std::string& who) {
  std::vector<coordT> xyz;
  xyz.reserve(3 * points.size());
  for (const vec3& p : points) xyz.insert(xyz.end(), {p.x, p.y, p.z});
  MessageStream err;
  if (!err.file) throw std::runtime_error(who + ": cannot open a message stream for Qhull");
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, err.file);
  char options[] = "qhull";  // default: coplanar facets merged (C-0), no triangulation
  const int exit_code =
      qh_new_qhull(qh, 3, static_cast<int>(points.size()), xyz.data(), False, options, nullptr, err.file);
  HullFaces h;
  std::string failure;
  if (exit_code != 0) {
    failure = err.first_line();
  } else {
    h.start.push_back(0);
    facetT* facet;
    FORALLfacets {
      setT* ordered = qh_facet3vertex(qh, facet);
      const std::size_t first = h.vertices.size();
      vertexT *vertex, **vertexp;
      FOREACHvertex_(ordered) h.vertices.push_back(qh_pointid(qh, vertex->point));
      qh_settempfree(qh, &ordered);
      const vec3 n = normalize(vec3{facet->normal[0], facet->normal[1], facet->normal[2]});
      // Qhull's order is fixed per facet but not by our convention: Newell's normal of the polygon
      // tells whether it runs counter-clockwise seen from outside.
      vec3 newell{};
      const std::size_t m = h.vertices.size() - first;
      for (std::size_t i = 0; i < m; ++i) {
        const vec3 u = points[h.vertices[first + i]], v = points[h.vertices[first + (i + 1) % m]];
        newell += vec3{(u.y - v.y) * (u.z + v.z), (u.z - v.z) * (u.x + v.x), (u.x - v.x) * (u.y + v.y)};
      }
      if (dot(newell, n) < 0) std::reverse(h.vertices.begin() + first, h.vertices.end());
      h.normals.push_back(n);
      h.start.push_back(static_cast<int>(h.vertices.size()));
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int still_long = 0, total_long = 0;
  qh_memfreeshort(qh, &still_long, &total_long);
  if (exit_code != 0) throw std::invalid_argument(who + ": Qhull cannot build the hull (" + failure + ")");
  return h;
}

}  // namespace impulse
