#include "e1/xml.h"

#include <cctype>
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

class Reader {
 public:
  Reader(const std::string& text, const std::string& file) : s_(text), file_(file) {}

  XmlNode document() {
    skip_misc(true);
    if (!at('<')) fail("expected the root element");
    XmlNode root = element();
    skip_misc(false);
    if (i_ < s_.size()) fail("content after the root element");
    return root;
  }

 private:
  const std::string& s_;
  const std::string& file_;
  std::size_t i_ = 0;
  int line_ = 1;

  [[noreturn]] void fail(const std::string& msg) const {
    throw std::invalid_argument(file_ + ":" + std::to_string(line_) + ": " + msg);
  }
  bool at(char c) const { return i_ < s_.size() && s_[i_] == c; }
  bool starts(const char* p) const { return s_.compare(i_, std::char_traits<char>::length(p), p) == 0; }
  void advance(std::size_t n = 1) {
    for (std::size_t k = 0; k < n && i_ < s_.size(); ++k, ++i_)
      if (s_[i_] == '\n') ++line_;
  }
  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) advance();
  }
  void skip_until(const char* end, const char* what) {
    std::size_t n = std::char_traits<char>::length(end);
    while (i_ < s_.size() && !starts(end)) advance();
    if (i_ >= s_.size()) fail(std::string("unterminated ") + what);
    advance(n);
  }
  // Whitespace, comments and (in the prolog only) the XML declaration.
  void skip_misc(bool prolog) {
    for (;;) {
      skip_space();
      if (starts("<!--")) {
        skip_until("-->", "comment");
      } else if (prolog && starts("<?xml")) {
        skip_until("?>", "XML declaration");
      } else if (starts("<!DOCTYPE") || starts("<![CDATA[") || starts("<?")) {
        fail("DOCTYPE, CDATA and processing instructions are not supported");
      } else {
        return;
      }
    }
  }
  std::string name() {
    std::size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '-' ||
                              s_[i_] == ':' || s_[i_] == '.'))
      advance();
    if (b == i_) fail("expected a name");
    return s_.substr(b, i_ - b);
  }
  std::string value() {
    if (!at('"') && !at('\'')) fail("attribute value must be quoted");
    char q = s_[i_];
    advance();
    std::string v;
    while (i_ < s_.size() && s_[i_] != q) {
      if (s_[i_] == '<') fail("'<' inside an attribute value");
      if (s_[i_] == '&') {
        static const std::pair<const char*, char> entities[] = {
            {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
        bool ok = false;
        for (const auto& [e, c] : entities)
          if (starts(e)) {
            v += c;
            advance(std::char_traits<char>::length(e));
            ok = true;
            break;
          }
        if (!ok) fail("unknown entity in an attribute value");
        continue;
      }
      v += s_[i_];
      advance();
    }
    if (i_ >= s_.size()) fail("unterminated attribute value");
    advance();
    return v;
  }
  XmlNode element() {
    XmlNode n;
    n.line = line_;
    advance();  // '<'
    n.tag = name();
    for (;;) {
      skip_space();
      if (starts("/>")) {
        advance(2);
        return n;
      }
      if (at('>')) {
        advance();
        break;
      }
      std::string k = name();
      skip_space();
      if (!at('=')) fail("attribute '" + k + "' of <" + n.tag + "> has no value");
      advance();
      skip_space();
      if (n.find(k)) fail("attribute '" + k + "' repeated in <" + n.tag + ">");
      n.attributes.emplace_back(k, value());
    }
    for (;;) {
      while (i_ < s_.size() && !at('<')) advance();  // character data is ignored
      if (i_ >= s_.size()) fail("<" + n.tag + "> opened on line " + std::to_string(n.line) + " is never closed");
      if (starts("<!--")) {
        skip_until("-->", "comment");
      } else if (starts("</")) {
        advance(2);
        std::string close = name();
        if (close != n.tag)
          fail("</" + close + "> closes <" + n.tag + "> opened on line " + std::to_string(n.line));
        skip_space();
        if (!at('>')) fail("expected '>' after </" + close);
        advance();
        return n;
      } else if (starts("<!") || starts("<?")) {
        fail("DOCTYPE, CDATA and processing instructions are not supported");
      } else {
        n.children.push_back(element());
      }
    }
  }
};

}  // namespace

XmlNode parse_xml(const std::string& text, const std::string& file) { return Reader(text, file).document(); }

}  // namespace impulse
