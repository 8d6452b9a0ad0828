// Messages for the user: one printable line, whatever the input they quote.
#pragma once

#include <string>

namespace impulse {

/// An error message as one printable line: control characters (a newline inside a quoted name or
/// value, say) become '?', and the text is cut at 400 characters.
inline std::string one_line(std::string message) {
  if (message.size() > 400) message = message.substr(0, 400) + "...";
  for (char& c : message)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return message;
}

}  // namespace impulse
