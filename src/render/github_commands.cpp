#include "render/github_commands.hpp"

namespace occcalc::cli {

std::string command_data(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      default: out += c;
    }
  }
  return out;
}

std::string command_property(std::string_view text) {
  std::string out;
  for (const char c : command_data(text)) {
    switch (c) {
      case ':': out += "%3A"; break;
      case ',': out += "%2C"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace occcalc::cli
