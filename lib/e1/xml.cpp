#include "e1/xml.h"

#include <tinyxml2.h>

#include "core/text.h"

#include <stdexcept>

namespace impulse {

const std::string* XmlNode::find(const std::string& name) const {
  for (const auto& [k, v] : attributes)
    if (k == name) return &v;
  return nullptr;
}

std::vector<const XmlNode*> XmlNode::all(const std::string& t) const {
  std::vector<const XmlNode*> r;
  for (const XmlNode& c : children)
    if (c.tag == t) r.push_back(&c);
  return r;
}

const XmlNode* XmlNode::first(const std::string& t) const {
  for (const XmlNode& c : children)
    if (c.tag == t) return &c;
  return nullptr;
}

namespace {

XmlNode convert(const tinyxml2::XMLElement& e) {
  XmlNode n;
  n.tag = e.Name();
  n.line = e.GetLineNum();
  for (const tinyxml2::XMLAttribute* a = e.FirstAttribute(); a; a = a->Next()) n.attributes.emplace_back(a->Name(), a->Value());
  for (const tinyxml2::XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) n.children.push_back(convert(*c));
  return n;
}

}  // namespace

XmlNode parse_xml(const std::string& text, const std::string& file) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS) {
    std::string why = doc.ErrorStr() ? doc.ErrorStr() : "malformed XML";
    throw std::invalid_argument(one_line(file + ":" + std::to_string(doc.ErrorLineNum()) + ": " + why));
  }
  const tinyxml2::XMLElement* root = doc.RootElement();
  if (!root) throw std::invalid_argument(one_line(file + ":1: no root element"));
  return convert(*root);
}

}  // namespace impulse
