// A small XML reader for the URDF and MJCF subsets the importers accept.
//
// It reads elements, attributes (single or double quotes, the five predefined entities), comments,
// an optional <?xml ...?> declaration and ignores character data. DOCTYPE, CDATA and processing
// instructions elsewhere are rejected. Every node keeps its line so that importers can report
// "file:line: what is wrong".
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace impulse {

struct XmlNode {
  std::string tag;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<XmlNode> children;
  int line = 0;

  /// The attribute's value, or nullptr when absent.
  const std::string* find(const std::string& name) const;
  /// Children with this tag, in document order.
  std::vector<const XmlNode*> all(const std::string& tag) const;
  /// The first child with this tag, or nullptr.
  const XmlNode* first(const std::string& tag) const;
};

/// Parses a whole document and returns its root element. Throws std::invalid_argument
/// "file:line: message" for malformed input (unclosed or mismatched tags, bad attributes ...).
XmlNode parse_xml(const std::string& text, const std::string& file);

}  // namespace impulse
