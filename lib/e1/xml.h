// XML documents for the URDF and MJCF importers, read with tinyxml2.
//
// The importers walk a small tree of XmlNode (tag, attributes, children, line) built from
// tinyxml2's DOM, so that every error they report can say "file:line: what is wrong".
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
/// "file:line: message" for malformed input (tinyxml2's diagnosis, with its line).
XmlNode parse_xml(const std::string& text, const std::string& file);

}  // namespace impulse
