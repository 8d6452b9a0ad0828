#include "course/tries_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/text.h"

namespace impulse::course {

using nlohmann::json;

std::string tries_path() {
  if (const char* p = std::getenv("IMPULSE_TRIES_FILE")) return p;
  if (const char* h = std::getenv("HOME")) return std::string(h) + "/.impulse/tries.json";
  return "off";
}

namespace {

json read_record(const std::string& path) {
  std::ifstream f(path);
  if (!f) return json::object();
  try {
    json j = json::parse(f);
    if (j.is_object()) return j;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument(
      one_line("tries file '" + path + "' is not a JSON object of exercise -> count (delete it to start over)"));
}

// Holds an exclusive lock on PATH.lock for its lifetime (none when the lock file cannot be made).
class RecordLock {
 public:
  explicit RecordLock(const std::string& path) {
    fd_ = ::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ >= 0)
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  ~RecordLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  RecordLock(const RecordLock&) = delete;
  RecordLock& operator=(const RecordLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

int recorded_tries(const std::string& path, const std::string& id) {
  if (path == "off") return 0;
  const json j = read_record(path);
  const auto it = j.find(id);
  return it != j.end() && it->is_number_integer() ? it->get<int>() : 0;
}

int record_wrong_try(const std::string& path, const std::string& id) {
  if (path == "off") return 1;
  std::error_code ec;
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  RecordLock lock(path);
  json j = read_record(path);
  const int tries = (j.contains(id) && j[id].is_number_integer() ? j[id].get<int>() : 0) + 1;
  j[id] = tries;
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream f(tmp);
    if (!f) return tries;  // a read-only home: grading still works, only the count is not kept
    f << j.dump(2) << '\n';
    if (!f.flush()) {
      std::filesystem::remove(tmp, ec);
      return tries;
    }
  }
  std::filesystem::rename(tmp, p, ec);
  if (ec) std::filesystem::remove(tmp, ec);
  return tries;
}

}  // namespace impulse::course
